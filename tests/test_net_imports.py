"""The network layer stays out of ``import cardnet``: no trio until a network command runs."""

from __future__ import annotations

import subprocess
import sys

from nethelpers import child_env


def test_protocol_journal_table_and_commands_do_not_import_trio() -> None:
    code = (
        "import sys\n"
        "import cardnet.protocol, cardnet.journal, cardnet.table, cardnet.commands.net\n"
        "assert 'trio' not in sys.modules, 'trio was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=child_env())
