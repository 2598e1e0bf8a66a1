"""The code is linted and formatted as ``pyproject.toml`` says (``[tool.ruff]``): CI runs this."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "command", [["check", "--quiet", "."], ["format", "--check", "--quiet", "."]], ids=str
)
def test_ruff_is_clean(command):
    result = subprocess.run(
        [sys.executable, "-m", "ruff", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
