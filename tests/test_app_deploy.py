"""The Deploy tab of "Your own model": each runtime against the library, and the fixed file."""

import numpy as np
import pytest

from app_pages.your_model import keys as your_model_keys
from app_pages.your_model.deploy_words import (
    disagreements_in_words,
    export_caption,
    not_run_sentence,
    runtime_overview,
    runtime_sentence,
)
from tests import interop_helpers as h
from tests.apptest_helpers import by_key, open_page, open_tab
from tests.apptest_helpers import shown as as_read
from trees.interop import from_model, parity_report

PAGE = "app_pages/your_model/your_model.py"


def _clean(at):
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


@pytest.fixture(scope="module")
def lightgbm_report():
    X, X_test = h.lattice_data(missing=False)
    model = h.lightgbm_model("binary").fit(X, h.target(X, "binary"))
    return parity_report(model, X_test, runtimes=["onnx-lab", "onnx-converter", "m2cgen"])


def test_the_overview_says_each_runtime_and_why_one_did_not_run(lightgbm_report, monkeypatch):
    overview = runtime_overview(lightgbm_report)
    assert list(overview.columns) == ["runtime", "disagree", "below t", "on t", "above t",
                                      "status"]  # fmt: skip
    counts = lightgbm_report.counts()
    assert overview["disagree"].tolist()[:2] == [
        f"{counts['onnx-lab']:,}", f"{counts['onnx-converter']:,}"]  # fmt: skip
    assert "onnxmltools" in overview["runtime"].iat[1]
    sentence = runtime_sentence(lightgbm_report, "onnx-converter")
    assert f"**{counts['onnx-converter']} rows**" in sentence and "above the threshold" in sentence
    assert "rounds the row to float32" in sentence and "**Fix**" in sentence
    assert "agrees with LightGBM" in runtime_sentence(lightgbm_report, "onnx-lab")
    import sys

    monkeypatch.setitem(sys.modules, "m2cgen", None)
    missing = parity_report(lightgbm_report.model, runtimes=["m2cgen"])
    assert runtime_overview(missing)["status"].iat[0] == "not installed"
    command = f'{sys.executable} -m pip install "m2cgen>=0.10"'
    assert f"m2cgen's Python code**: not installed ({command})" in as_read(
        not_run_sentence(missing)
    )
    assert not_run_sentence(lightgbm_report) == "" or "m2cgen" in not_run_sentence(lightgbm_report)
    assert f"not installed here: {command}" in as_read(runtime_sentence(missing, "m2cgen"))


def test_the_disagreements_are_shown_exactly(lightgbm_report):
    table = lightgbm_report.table("onnx-converter")
    shown, exact = disagreements_in_words(table)
    assert len(shown) == len(table) and set(exact) <= set(shown.columns)
    assert {"side", "cause", "library says", "runtime says"} <= set(shown.columns)
    value, threshold = shown.iloc[0][["the row's value", "threshold"]]
    assert value > threshold  # one float64 ulp above
    assert f"{value:.17g}" != f"{threshold:.17g}"


def test_the_file_is_checked_before_it_is_offered():
    assert "none disagrees" in export_caption("average", 300, 0, "lightgbm")
    assert "not offered" in export_caption("native", 300, 2, "lightgbm")


def test_an_upload_is_read_again_with_its_document(tmp_path):
    from app_pages.your_model.deploy import _with_document
    from app_pages.your_model.sources import ModelChoice

    X, _ = h.lattice_data(missing=False)
    model = h.xgboost_model("binary").fit(X, h.target(X, "binary"))
    model.save_model(tmp_path / "model.json")
    data = (tmp_path / "model.json").read_bytes()
    bare = from_model(model)
    bare.document = None  # as the page's cache keeps an upload
    choice = ModelChoice(bare, "digest", "upload", file_name="model.json", file_data=data)
    again = _with_document(choice)
    assert again.document is not None and again.n_trees == bare.n_trees


@pytest.mark.slow
def test_the_deploy_tab_checks_the_runtimes_in_the_background_then_lists_them():
    from lab.computations import server_computations
    from ui.experiments import kept_result

    server_computations().clear()
    kept_result.clear()
    try:
        at = open_page(PAGE, timeout=180)
        by_key(at.radio, your_model_keys.LIBRARY).set_value("lightgbm").run()
        open_tab(at, your_model_keys.TAB, "Deploy")
        _clean(at)
        [entry] = [e for k, e in server_computations()._entries.items() if k[0] == "parity"]
        assert entry.wait(600) and entry.status == "done", entry.error
        at.run()
        _clean(at)
        titles = [t.value for t in at.dataframe]
        assert titles and "onnxruntime, the lab's export" in titles[0]["runtime"].tolist()
        lab_line = titles[0].set_index("runtime").loc["onnxruntime, the lab's export"]
        assert lab_line["disagree"] == "0"
        by_key(at.selectbox, your_model_keys.RUNTIME).set_value("onnx-converter").run()
        _clean(at)
        assert any("onnxmltools" in m.value and "Fix" in m.value for m in at.markdown)
        by_key(at.radio, your_model_keys.EXPORT).set_value("average").run()
        _clean(at)
        assert any("none disagrees" in c.value for c in at.caption)
    finally:
        server_computations().clear()
        kept_result.clear()


def test_the_exported_file_of_the_tab_reproduces_the_average():
    import onnxruntime as ort

    from app_pages.your_model.deploy import _export

    X, X_test = h.lattice_data(missing=False)
    model = from_model(h.catboost_model("multiclass").fit(X, h.target(X, "multiclass")))
    data, (n_rows, n_bad) = _export("catboost-test", "lattice", "average", model, X_test)
    assert (n_rows, n_bad) == (len(X_test), 0)
    session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    got = session.run(["probabilities"], {"X": X_test})[0]
    np.testing.assert_allclose(got, model.output(X_test, "average"), atol=1e-12)


def test_runtimes_stopped_for_one_reason_are_named_together_in_the_runtimes_words():
    from types import SimpleNamespace

    import pandas as pd

    from trees.interop._runtimes import _first_line
    from ui.markdown import plain

    said = _first_line(RuntimeError(
        "[02:59:31] /project/src/model_loader/delegated_handler.cc:810: Check failed: "
        "output.enc.empty() && output.sorted_idx.empty(): Treelite does not yet support "
        "XGBoost models with categorical splits.\nStack trace: ..."))  # fmt: skip
    assert said == "Treelite does not yet support XGBoost models with categorical splits."
    lines = [("onnx-lab", "onnxruntime, the lab's export", "ran", ""),
             ("treelite-float32", "treelite, float32 rows", "does not read this model", said),
             ("treelite-float64", "treelite, float64 rows", "does not read this model", said)]  # fmt: skip
    summary = pd.DataFrame(lines, columns=["runtime", "label", "status", "detail"]).assign(
        rows=10, disagree=[0, None, None], below=[0, None, None], on=[0, None, None],
        above=[0, None, None])  # fmt: skip
    report = SimpleNamespace(summary=summary)
    assert not_run_sentence(report) == (
        "Not run here: **treelite, float32 rows** and **treelite, float64 rows**: does not read "
        f"this model ({plain(said)})."
    )
    assert runtime_overview(report)["status"].tolist() == ["ran", "does not read it",
                                                           "does not read it"]  # fmt: skip
