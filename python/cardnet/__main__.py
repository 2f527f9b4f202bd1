"""``python -m cardnet``: the same as the ``cardnet`` command."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
