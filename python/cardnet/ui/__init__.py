"""User interfaces of cardnet: per-game renderers (``render``) and the line-mode front end (``plain``)."""
