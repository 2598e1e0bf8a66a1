"""Hostile and damaged model files (issues 60 and 61): each refused in words or read correctly.

Every file is read as the page and the command line read it: in the model worker
(``lab.model_files``), here with a time limit of 10 s and a memory limit of 500 MB
beyond the helper, so a file that took longer or more would be stopped and fail its
test with the worker's words instead of the reader's. A file that is a valid model
(up to 400,000 nodes: 4-7 s to read here) is read with 30 s, so that a loaded machine
does not fail it, then audited, its predictions compared with its library's own, and
the audit's growth of this process's peak memory held under 500 MB too.
"""

import json
import warnings

import numpy as np
import pytest

from lab.model_files import read_model_in_worker
from tests import hostile_models as hm
from trees.interop import ModelFileError, audit_conditioning

SECONDS, MEGABYTES = 10, 500
VALID_MODEL_SECONDS = 30


def _refused(name, data, words):
    """``data`` is refused by the readers (not by the worker's limits), in ``words``."""
    with pytest.raises(ModelFileError) as refusal:
        read_model_in_worker(name, data, SECONDS, MEGABYTES)
    message = str(refusal.value)
    assert words in message, message
    assert "was stopped" not in message and "crashed" not in message, message
    return message


def _peak_growth_mb(function):
    """``function()`` and how far it raised this process's peak resident memory, in MB
    (Linux: the peak is reset first through /proc/self/clear_refs); None elsewhere."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
        before = _status("VmRSS")
    except OSError:
        return function(), None
    result = function()
    return result, (_status("VmHWM") - before) / 1024


def _status(field):
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith(field + ":"))
    return int(line.split()[1])  # kB


def _audited(name, data, library_prediction):
    """``data`` read in the worker, audited here within the memory limit, and predicting as
    its library (``library_prediction(X)``); returns the model."""
    model = read_model_in_worker(name, data, VALID_MODEL_SECONDS, MEGABYTES)
    X = hm.rows(345)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow (or other) warning reaches a user
        audit, growth = _peak_growth_mb(lambda: audit_conditioning(model, X))
    assert growth is None or growth < MEGABYTES, growth
    assert audit.summary()["n_rows"] == 345 and audit.headline()
    np.testing.assert_allclose(audit.predictions["native"], library_prediction(X), atol=1e-5)
    return model


# ------------------------------------------------------------- issue 60's table, row by row


def test_a_skops_tree_whose_root_is_its_own_child():
    _refused("tree.skops", hm.skops_tree(hm.root_its_own_child), "reached twice")


def test_a_skops_tree_with_a_cycle_in_its_children():
    _refused("tree.skops", hm.skops_tree(hm.cycle_of_children), "reached twice")


@pytest.mark.slow
@pytest.mark.parametrize("n_nodes", [100_000, 400_000])
def test_an_xgboost_model_of_1000_classes_is_audited_within_the_limits(n_nodes):
    import xgboost as xgb

    data = hm.xgboost_many_classes(1_000, n_nodes)
    booster = xgb.Booster()
    booster.load_model(bytearray(data))
    model = _audited("many.ubj", data, lambda X: booster.predict(xgb.DMatrix(X)))
    assert model.n_outputs == 1_000 and sum(t.node_count for t in model.trees) > 0.9 * n_nodes


def test_a_lightgbm_bitset_naming_2_to_the_31_categories():
    # 31,250 words of 32 categories each, named by 2,000 nodes: 2.0e9 codes in all.
    data = hm.lightgbm_with_categories(31_250, n_nodes=2_000)
    _refused("cats.txt", data, "category codes named by categorical splits pass the limit")


def test_a_lightgbm_bitset_of_60_words():
    data = hm.lightgbm_with_categories(60, n_nodes=20_000)
    _refused("cats.txt", data, "category codes named by categorical splits pass the limit")


def test_a_lightgbm_bitset_with_one_high_code_in_many_nodes():
    data = hm.lightgbm_with_categories(31_250, n_nodes=20_000, high_bit=True)
    _refused("cats.txt", data, "name too many categories")


def test_an_xgboost_ubjson_file_of_63_mb_of_nested_lists():
    _refused("lists.ubj", hm.nested_lists_ubjson(), "more than 1,000,000 containers")


def test_a_json_file_whose_dictionaries_amplify():
    _refused("amplify.json", hm.amplifying_json(), "JSON objects and arrays")


def test_a_catboost_model_with_class_names_as_a_string():
    _refused("cb.json", hm.catboost_class_names_as_string(), "class names")


def test_a_catboost_model_with_a_nan_border_is_refused_with_what_catboost_does():
    message = _refused("cb.json", hm.catboost_nan_border(), "the border nan")
    assert "its own JSON reader cannot use it" in message


@pytest.mark.parametrize("threshold, side", [("nan", "right"), ("inf", "left"), ("-inf", "right")])
def test_lightgbm_nan_and_inf_thresholds_are_read_as_lightgbm_reads_them(threshold, side):
    """LightGBM (4.7) loads such a file and compares with the threshold as with any other:
    x <= NaN is never true. The lab reads it so, and says it."""
    import lightgbm as lgb

    data = hm.lightgbm_with_threshold(threshold)
    booster = lgb.Booster(model_str=data.decode())
    model = _audited("nan.txt", data, lambda X: _two_columns(booster.predict(X)))
    assert (
        len(model.notes) == 1
        and f"the threshold {threshold.replace('nan', 'NaN')}:" in (model.notes[0])
    )
    assert f"sends every {'finite ' if 'inf' in threshold else ''}value {side}" in model.notes[0]


def _two_columns(p):
    return np.column_stack([1 - p, p])


@pytest.mark.slow
def test_a_catboost_model_of_20000_trees_is_audited_without_an_overflow_warning():
    import catboost as cb

    data = hm.catboost_many_trees(20_000)
    library = cb.CatBoostClassifier()
    library.load_model(str(_written(data, "many.json")), format="json")
    _audited("many.json", data, library.predict_proba)


def _written(data, name):
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / name
    path.write_bytes(data)
    return path


# ------------------------------------------------------------ skops files that lie to sklearn


def _everywhere(schema, node, content):
    """Set ``content`` in ``node`` and in every node of its id (skops builds one object per
    id: a careful attacker changes them all)."""
    for other in hm.schema_nodes(schema):
        if other.get("__id__") == node["__id__"]:
            other["content"] = content


def test_a_skops_tree_declaring_more_nodes_than_it_holds():
    def more_nodes(schema):
        _everywhere(schema, hm.tree_schema(schema)["content"]["content"]["node_count"], "100000")

    _refused("tree.skops", hm.skops_with_schema(more_nodes), "declares 100,000 nodes")


def test_a_skops_tree_declaring_more_outputs_than_class_counts():
    def more_outputs(schema):
        _everywhere(schema, hm.tree_schema(schema)["__reduce__"]["args"]["content"][2], "1000000")

    _refused("tree.skops", hm.skops_with_schema(more_outputs), "Multi-output")


def test_a_skops_schema_giving_one_object_two_values():
    """skops builds an object once per id: the tree's n_features is the estimator's
    n_features_in_; a schema saying 4 in one place and 2**63 - 1 in the other is refused."""

    def two_values(schema):
        hm.tree_schema(schema)["__reduce__"]["args"]["content"][0]["content"] = str(2**63 - 1)

    _refused("tree.skops", hm.skops_with_schema(two_values), "one object two different values")


# -------------------------------------------------------------- issue 61: damaged documents


def test_a_lightgbm_model_cut_in_half_is_refused():
    for at_a_tree in (True, False):
        _refused("half.txt", hm.lightgbm_cut_in_half(at_a_tree), "cut short")


def test_a_lightgbm_model_with_a_tree_removed_is_refused():
    text = hm.lightgbm_text()
    trees = text.split("\nTree=")
    del trees[2]
    _refused("gap.txt", "\nTree=".join(trees).encode(), "tree_sizes")


def test_a_truncated_xgboost_document_is_refused():
    data = hm.valid_models()[0]
    for name in ("model.json", "model.ubj"):
        cut = data[name][: len(data[name]) // 2]
        _refused(name, cut, "truncated")
    document = json.loads(data["model.json"])
    model = document["learner"]["gradient_booster"]["model"]
    model["trees"], model["tree_info"] = model["trees"][:2], model["tree_info"][:2]
    _refused("model.json", json.dumps(document).encode(), "cut short or was edited")
    document = json.loads(data["model.json"])
    tree = document["learner"]["gradient_booster"]["model"]["trees"][0]
    for key in ("left_children", "right_children", "split_indices", "split_conditions",
                "default_left", "split_type", "parents", "base_weights", "loss_changes",
                "sum_hessian"):  # fmt: skip
        tree[key] = tree[key][:3]
    _refused("model.json", json.dumps(document).encode(), "cut short or was edited")


def test_a_truncated_catboost_document_is_refused():
    data = hm.valid_models()[0]["cb.json"]
    _refused("cb.json", data[: len(data) // 2], "truncated")
    document = hm.catboost_document()
    leaves = document["oblivious_trees"][0]["leaf_values"]
    document["oblivious_trees"][0]["leaf_values"] = leaves[: len(leaves) // 2]
    _refused("cb.json", hm.catboost_bytes(document), "leaf values do not match its depth")


@pytest.mark.parametrize("scale, bias", [(float("nan"), 0.0), (1.0, float("nan")),
                                         (float("inf"), 0.0)])  # fmt: skip
def test_a_catboost_model_with_a_nan_scale_or_bias_is_refused(scale, bias):
    """CatBoost 1.2.10 crashes on a NaN or infinite scale and reads a NaN bias as the end of
    the file; the lab computed NaN for every row and said "None of the rows changes"."""
    _refused("cb.json", hm.catboost_scale_and_bias(scale, bias), "CatBoost never writes")


def test_outputs_that_overflow_are_refused_never_counted_as_unchanged():
    """Leaf values that add up past float64 give inf under both tests: the audit refuses
    them rather than count the rows as unchanged (a regression: the identity link keeps inf)."""
    lines = []
    for line in hm.lightgbm_text().splitlines():
        if line.startswith("leaf_value="):
            line = "leaf_value=" + " ".join(["1.7e308"] * len(line.split("=")[1].split()))
        if line.startswith("objective="):
            line = "objective=regression"
        if not line.startswith("tree_sizes="):  # the sizes of LightGBM before version 3
            lines.append(line)
    model = read_model_in_worker("big.txt", "\n".join(lines).encode(), SECONDS, MEGABYTES)
    with pytest.raises(ModelFileError, match="not finite numbers on 200 of the 200 rows"):
        audit_conditioning(model, hm.rows())


# ------------------------------------------------------------------- the worker's own limits


def test_a_file_past_the_time_limit_is_stopped_and_said():
    data = hm.catboost_many_trees(2_000)
    with pytest.raises(ModelFileError, match=r"took longer than 0.01 seconds, so it was stopped"):
        read_model_in_worker("many.json", data, 0.01, MEGABYTES)


def test_a_file_past_the_memory_limit_is_stopped_and_said(monkeypatch):
    """A fresh helper (the limit caps the child's address space beyond the helper's, whose
    heap may hold free memory from earlier files: lab.model_files' docstring)."""
    from datasets.upload_worker import WorkerHelper
    from lab import model_files

    helper = WorkerHelper("lab.model_files", env={"OMP_NUM_THREADS": "1"})
    monkeypatch.setattr(model_files, "_HELPER", helper)
    data = hm.xgboost_many_classes(1_000, 100_000)
    try:
        with pytest.raises(ModelFileError, match=r"needed more than 5 MB of memory, so it was"):
            read_model_in_worker("many.ubj", data, VALID_MODEL_SECONDS, 5)
        model = read_model_in_worker("many.ubj", data, VALID_MODEL_SECONDS, MEGABYTES)
        assert model.n_outputs == 1_000
    finally:
        helper.process.kill()
        helper.process.wait()


def test_the_limits_are_settings(monkeypatch):
    from lab.model_files import MODEL_MEMORY_MB, MODEL_TIMEOUT, model_limits

    monkeypatch.setenv("TREE_BIAS_LAB_MODEL_TIMEOUT", "12.5")
    monkeypatch.setenv("TREE_BIAS_LAB_MODEL_MEMORY_MB", "300")
    assert model_limits() == (12.5, 300)
    for bad in ("-1", "soon", "inf", ""):
        monkeypatch.setenv("TREE_BIAS_LAB_MODEL_TIMEOUT", bad)
        monkeypatch.setenv("TREE_BIAS_LAB_MODEL_MEMORY_MB", bad)
        assert model_limits() == (MODEL_TIMEOUT, MODEL_MEMORY_MB)


def test_the_command_lines_fork_says_the_same_words():
    """``python -m lab audit`` forks itself for the file (no helper to start): the same
    refusals, time and memory limits, in the same words."""
    hostile = hm.skops_tree(hm.root_its_own_child)
    with pytest.raises(ModelFileError, match="reached twice"):
        read_model_in_worker("tree.skops", hostile, SECONDS, MEGABYTES, fork=True)
    many = hm.catboost_many_trees(2_000)
    with pytest.raises(ModelFileError, match="took longer than 0.01 seconds"):
        read_model_in_worker("many.json", many, 0.01, MEGABYTES, fork=True)
    model = read_model_in_worker("many.json", many, VALID_MODEL_SECONDS, MEGABYTES, fork=True)
    assert model.n_trees == 2_000 and model.document is None
