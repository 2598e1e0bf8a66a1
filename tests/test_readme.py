"""The README's package example runs as written."""

import re
import subprocess
import sys
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


EXAMPLE = README.parent / "examples" / "loan_applicant.py"


def test_readme_shows_the_example_script_and_what_it_prints(tmp_path):
    """The README's example is examples/loan_applicant.py, and it prints the README's output
    when run from a folder outside the checkout (the package is installed, not on the path)."""
    text = README.read_text()
    script = EXAMPLE.read_text()
    code = script.split('"""', 2)[2].lstrip("\n")
    assert f"```python\n{code}```" in text
    result = subprocess.run(
        [sys.executable, str(EXAMPLE)], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert f"```text\n{result.stdout}```" in text


def test_readme_links_to_files_that_exist():
    targets = re.findall(r"\]\(((?!https?:)[^)#]+)\)", README.read_text())
    assert targets
    missing = [t for t in targets if not (README.parent / t).exists()]
    assert not missing, missing
