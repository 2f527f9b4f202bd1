"""The hand-kept stubs of the native module and its submodule ``host`` match them (mypy.stubtest checks a
package's submodules with it)."""

from __future__ import annotations

import subprocess
import sys


def test_core_stub_matches_extension() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "cardnet._core"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
