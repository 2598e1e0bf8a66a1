"""The README's package example runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README has no python example"
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})


def test_readme_has_the_two_setup_commands():
    text = README.read_text()
    assert "pip install -r requirements.txt && streamlit run app.py" in text
    assert "pip install -r requirements-dev.txt && pytest" in text
