"""The README's package example runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README has no python example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})


APP_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -r requirements.txt && .venv/bin/streamlit run app.py"
TEST_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -r requirements-dev.txt && .venv/bin/python -m pytest"


def test_readme_has_the_two_setup_commands():
    text = README.read_text()
    assert APP_COMMAND in text
    assert TEST_COMMAND in text


def test_ci_runs_the_readme_test_command():
    ci = (README.parent / ".ci" / "run").read_text().splitlines()
    assert TEST_COMMAND in ci, (
        "the last step of .ci/run must be the README's test command, word for word"
    )
