"""What the lobby's and the table's controllers share: the client's state, redrawing it, running trio tasks for
key handlers, and the prompt line's one question at a time.

It runs on the trio side (guest mode, on the UI's own thread). Key handlers call the controllers; those that
need the network start a task here and return at once, so a key never blocks the screen.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio

from ...errors import CardnetError
from ...i18n import gettext as _
from . import connection as C
from .state import AppState

__all__ = ["Runner"]


class Runner:
    """Owns the :class:`AppState` and the trio nursery the client's tasks run in."""

    def __init__(self, state: AppState, redraw: Callable[[], None]) -> None:
        self.state = state
        self.redraw = redraw
        self.nursery: trio.Nursery | None = None
        self.token: trio.lowlevel.TrioToken | None = None
        #: What the next line typed at the prompt is for (a password), and where it goes.
        self.prompt_answer: Callable[[str], None] | None = None

    def spawn(self, work: Callable[[], Awaitable[None]], what: str) -> None:
        """Runs ``work`` as a trio task; an error it raises becomes the screen's error line, not a crash, after
        ``what`` (words of the catalogs, marked with ``N_``: translated here)."""
        nursery, token = self.nursery, self.token
        if nursery is None or token is None:
            self.state.error = _("not ready yet")
            return

        async def guarded() -> None:
            try:
                await work()
            except BaseException as exc:
                inner = C.single_error(exc)
                known = (
                    CardnetError,
                    C.PeerError,
                    C.LocalError,
                    C.ProtocolError,
                    C.DiscoveryError,
                    OSError,
                    ValueError,
                )
                if not isinstance(inner, known):
                    raise
                self.state.error = _("{what}: {problem}").format(what=_(what), problem=inner)
                self.state.busy = ""
            self.redraw()

        # Key handlers run outside trio's context; the token hands the task over on the same thread.
        token.run_sync_soon(nursery.start_soon, guarded)

    def ask(self, label: str, answer: Callable[[str], None], *, secret: bool = True) -> None:
        """Opens the prompt line for one answer (a password); ``answer`` gets the text typed."""
        self.state.prompt, self.state.prompt_secret = label, secret
        self.prompt_answer = answer

    def answer(self, text: str) -> bool:
        """Hands a line typed at the prompt to whoever asked; False when nothing had asked."""
        respond = self.prompt_answer
        self.answer_none()
        if respond is None:
            return False
        respond(text)
        return True

    def answer_none(self) -> None:
        """The prompt was closed without an answer."""
        self.prompt_answer = None
        self.state.prompt, self.state.prompt_secret = "", False
