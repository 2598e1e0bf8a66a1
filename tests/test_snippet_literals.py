"""User strings enter the summaries' Python snippets as literals, never as code (issue report, item 11).

A file name holding a newline used to end the comment it was written into,
and the rest of the name ran as code. Each snippet built with a hostile name
must parse to the same statements as with a plain name: only the string
constants may differ, and the hostile name must come back whole from its literal.
"""

import ast
import io
import tokenize

import numpy as np
import pytest

from app_pages.conditioning import report as conditioning_report
from app_pages.your_model.words import reproduce_snippet
from datasets import PREPROCESS_DEFAULTS
from ui import snippets

PLAIN = "table.csv"
HOSTILE = [
    "x\nimport os; os.system('echo pwned')\n#.csv",
    "x\r\nprint('pwned') #.csv",
    "a'); import os; os.system('echo pwned'); ('.csv",
    'a"""\nimport os\n"""b.csv',
    "x\\\nprint('pwned').csv",
    "\u2028print('pwned')\x00\x0c.csv",
]


class _Constants(ast.NodeTransformer):
    """Every string constant replaced by one placeholder: what is left is the code's shape."""

    def visit_Constant(self, node):
        return ast.Constant("S") if isinstance(node.value, str) else node


def _shape(code):
    return ast.dump(_Constants().visit(ast.parse(code)))


def _strings(code):
    return {n.value for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Constant)}


def _builders(name):
    """Each snippet builder, given ``name`` wherever a user's string can enter."""
    upload, settings = ("upload", name), dict(PREPROCESS_DEFAULTS)
    generator = ("generator", name, {"n_samples": np.int64(300), "noise": name})
    yield "data", snippets.data_snippet(upload, settings)
    yield "dataset lines", "\n".join(snippets.dataset_lines(upload, settings))
    yield "generator", "\n".join(snippets.dataset_lines(generator, settings))
    yield "catalog", "\n".join(snippets.dataset_lines(("catalog", name), settings))
    yield (
        "evaluate",
        snippets.evaluate_snippet(
            upload, settings, "classification", 1000, 0.3, 0, {"max_depth": 3}
        ),
    )
    yield "cultivated", snippets.cultivated_snippet(upload, settings, 1000, name, 3, 0.5, 1.0)
    yield (
        "your model",
        reproduce_snippet(
            "upload", name, "sklearn", "\n".join(snippets.dataset_lines(upload, settings))
        ),
    )
    yield (
        "conditioning",
        "\n".join(conditioning_report.dataset_lines(generator, {"max_onehot": name})),
    )


@pytest.mark.parametrize("name", HOSTILE, ids=repr)
def test_a_hostile_file_name_stays_a_string_in_every_snippet(name):
    plain = dict(_builders(PLAIN))
    for kind, code in _builders(name):
        assert _shape(code) == _shape(plain[kind]), f"{kind}: the name changed the code\n{code}"
        assert name in _strings(code), f"{kind}: the name does not come back whole"


def test_no_comment_holds_a_user_string():
    """A comment cannot be ended by a name that is never written into one."""
    name = "quarterly-sales-distinctive.csv"
    for kind, code in _builders(name):
        comments = [
            token.string
            for token in tokenize.generate_tokens(io.StringIO(code).readline)
            if token.type == tokenize.COMMENT
        ]
        assert not [c for c in comments if "distinctive" in c], kind


def test_the_snippet_of_an_upload_runs_on_a_file_with_a_hostile_name(tmp_path, monkeypatch):
    name = "x\nimport os; os.system('echo pwned')\n#.csv"
    (tmp_path / name).write_bytes(
        b"a,b,y\n" + b"".join(b"%d,%d,%d\n" % (i, i % 3, i % 2) for i in range(20))
    )
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(
        compile(
            "\n".join(snippets.dataset_lines(("upload", name), PREPROCESS_DEFAULTS)),
            "<snippet>",
            "exec",
        ),
        namespace,
    )
    assert namespace["raw"].n_rows == 20


def test_literal_writes_numpy_scalars_as_plain_numbers():
    assert snippets.literal(np.float64(0.5)) == "0.5"
    assert snippets.literal(np.int64(3)) == "3"
    assert snippets.literal("it's\n") == repr("it's\n")
