"""``python -m lab parity MODEL DATA``: each runtime's line, the fix, the exported file."""

import io

import numpy as np
import pandas as pd
import pytest

from lab.cli import main
from tests import interop_helpers as h
from trees.interop import from_model, parity_report


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A LightGBM model file (float64 thresholds) and a CSV of rows with a target column."""
    folder = tmp_path_factory.mktemp("parity")
    X, X_test = h.lattice_data(missing=False)
    model = h.lightgbm_model("binary").fit(X, h.target(X, "binary"))
    model.booster_.save_model(folder / "model.txt")
    table = pd.DataFrame(X_test, columns=[f"f{j}" for j in range(4)])
    table["y"] = h.target(X_test, "binary")
    table.to_csv(folder / "rows.csv", index=False)
    return folder, model, X_test


def _main(*argv):
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_parity_command_prints_each_runtime_and_writes_the_fixed_file(files, tmp_path):
    import onnxruntime as ort

    folder, model, X_test = files
    onnx_path = tmp_path / "model.onnx"
    status, text = _main("parity", str(folder / "model.txt"), str(folder / "rows.csv"),
                         "--target", "y", "--runtime", "onnx-lab,onnx-converter",
                         "--export", str(onnx_path), "--conditioning", "average",
                         "--out", str(tmp_path / "out"))  # fmt: skip
    assert status == 0
    report = parity_report(model, X_test, runtimes=["onnx-lab", "onnx-converter"])
    expected = report.counts()
    table = text.split("\n\n")[0].splitlines()[2:]  # after the first line and the header
    lines = {line.split()[0]: line.split() for line in table}
    assert lines["onnx-lab"][1:4] == ["ran", str(len(report.rows)), "0"]
    assert int(lines["onnx-converter"][3]) == expected["onnx-converter"] > 0
    assert "fix: feed float64 rows" in text and "(above)" in text
    assert "checked in onnxruntime" in text
    session = ort.InferenceSession(onnx_path.read_bytes(), providers=["CPUExecutionProvider"])
    got = session.run(["probabilities"], {"X": X_test})[0]
    np.testing.assert_allclose(got, from_model(model).output(X_test, "average"), atol=1e-12)
    summary = pd.read_csv(tmp_path / "out" / "summary.csv")
    assert list(summary["runtime"]) == ["onnx-lab", "onnx-converter"]
    disagreements = pd.read_csv(tmp_path / "out" / "disagreements.csv")
    assert len(disagreements) == expected["onnx-converter"]
    assert len(pd.read_csv(tmp_path / "out" / "rows.csv")) == summary["rows"].iat[0]


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--runtime", "tvm"], "choose from onnx-lab"),
        (["--conditioning", "average"], "give --export too"),
        # the output paths are checked before a run, in the command line's words (lab.paths)
        (
            ["--export", "/no/such/folder/model.onnx", "--runtime", "onnx-lab"],
            "--export /no/such/folder/model.onnx: the folder /no/such/folder does not exist",
        ),
        (["--export", "/proc/model.onnx", "--runtime", "onnx-lab"], "cannot be written"),
        (["--out", "/proc/x", "--runtime", "onnx-lab"], "cannot be written"),
        (["--max-rows", "0"], "at least 1"),
    ],
)
def test_parity_command_errors_are_messages(files, capsys, extra, message):
    folder, _, _ = files
    status, _ = _main("parity", str(folder / "model.txt"), str(folder / "rows.csv"),
                      "--target", "y", *extra)  # fmt: skip
    err = capsys.readouterr().err
    assert status == 2 and message in err and "Traceback" not in err
