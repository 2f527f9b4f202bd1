"""User interfaces of cardnet: the line-mode game (``plain``) and per-game renderers."""
