"""audit_conditioning counts what a hand count finds (issue 31, part 2)."""

import numpy as np
import pytest

from tests import interop_helpers as h
from trees.interop import audit_conditioning, from_model


@pytest.fixture(scope="module")
def stump():
    """Source 000's Figure 1 in miniature: x in {0, 2, 4}, a split at the midpoint 3."""
    from sklearn.tree import DecisionTreeClassifier

    X = np.array([[0.0], [2.0], [4.0], [4.0]])
    return DecisionTreeClassifier(max_depth=1).fit(X, [0, 0, 1, 1])


def test_rows_on_the_threshold_flip_as_counted_by_hand(stump):
    X = np.array([[1.0], [2.0], [3.0], [3.0], [3.0], [5.0]])
    audit = audit_conditioning(stump, X)
    s = audit.summary()
    assert audit.model.trees[0].threshold[0] == 3.0
    # three rows hold 3: <= sends them left (class 0), < right (class 1)
    assert s["rows_on_threshold"] == 3 and s["rows_changed"] == 3 and s["class_changes"] == 3
    assert s["rho"] == 1.0 and s["largest_change"] == 1.0
    assert list(audit.rows["thresholds_met"]) == [0, 0, 1, 1, 1, 0]
    assert list(audit.rows["other_class"]) == [0, 0, 1, 1, 1, 1]
    assert np.allclose(audit.rows["average_p_1"], [0, 0, 0.5, 0.5, 0.5, 1])
    assert audit.flips.to_dict("records") == [{"tree": 0, "node": 0, "feature": "x0",
        "threshold": 3.0, "rows_on_it": 3, "rows_changed": 3}]  # fmt: skip
    assert audit.headline() == (
        "3 of 6 rows (50.0%) change their predicted class when the model's x <= t is read "
        "as x < t; every feature holds some affected split."
    )


def test_rows_between_lattice_points_do_not_count(stump):
    s = audit_conditioning(stump, np.array([[2.0], [4.0], [0.0]])).summary()
    assert s["rho"] == 0.0 and s["rows_on_threshold"] == 0 and s["rows_changed"] == 0


def test_xgboost_thresholds_are_observed_values_so_every_such_row_flips():
    import xgboost as xgb

    x = np.repeat(np.arange(5.0), 20)[:, None]
    model = xgb.XGBClassifier(n_estimators=1, max_depth=1, nthread=1, learning_rate=1.0)
    model.fit(x, (x[:, 0] >= 3).astype(int))
    assert model.get_booster().get_dump()[0].startswith("0:[f0<3]")
    audit = audit_conditioning(model, x)
    s = audit.summary()
    assert s["rho"] == 1.0
    assert s["rows_on_threshold"] == 20 and s["rows_changed"] == 20 and s["class_changes"] == 20
    assert audit.rows.loc[x[:, 0] == 3, "native_class"].eq(1).all()
    assert audit.rows.loc[x[:, 0] == 3, "other_class"].eq(0).all()


def test_continuous_data_has_rho_zero_and_no_change():
    from sklearn.ensemble import RandomForestRegressor

    rng = np.random.default_rng(0)
    X, X_new = rng.normal(size=(200, 3)), rng.normal(size=(500, 3))
    model = RandomForestRegressor(n_estimators=5, max_depth=4, n_jobs=1, random_state=0)
    model.fit(X, X[:, 0] + rng.normal(size=200))
    audit = audit_conditioning(model, X_new)
    s = audit.summary()
    assert s["rho"] == 0.0 and s["rows_on_threshold"] == 0 and s["rows_changed"] == 0
    assert s["lattice_features"] == [] and audit.flips.empty
    assert audit.headline().startswith("None of the 500 rows")
    assert "half_move" in audit.rows and audit.rows["half_move"].max() == 0


def test_audit_of_a_lattice_forest_agrees_with_its_predictions():
    _, X_test = h.lattice_data(missing=False)
    from sklearn.ensemble import RandomForestClassifier

    X, _ = h.lattice_data(seed=1, missing=False)
    model = RandomForestClassifier(n_estimators=6, max_depth=6, n_jobs=1, random_state=0)
    model.fit(X, h.target(X, "multiclass"))
    imported = from_model(model)
    audit = audit_conditioning(imported, X_test)
    s = audit.summary()
    le, lt = imported.predict_proba(X_test, "<="), imported.predict_proba(X_test, "<")
    assert s["rows_changed"] == int((np.abs(le - lt).max(axis=1) > 0).sum())
    assert s["class_changes"] == int((le.argmax(1) != lt.argmax(1)).sum())
    assert s["lattice_features"] == ["x0", "x1", "x2"]
    assert set(s["affected_features"]) <= {"x0", "x1", "x2"}
    assert audit.flips["rows_changed"].sum() >= s["rows_changed"] > 0
    assert np.allclose(audit.rows["average_p_0"], (le[:, 0] + lt[:, 0]) / 2)
    assert 0 < s["rows_on_threshold"] <= len(X_test)
    per = audit.features.set_index("feature")
    assert per.loc["x3", "splits_on_value"] == 0


def test_float32_and_float64_comparisons_differ_as_computed_by_hand():
    """scikit-learn's midpoint of float32(0.1) and float32(0.2) is 0.15000000223517418; the row
    0.150000001 lies below it in float64 but rounds to float32 0.15000000596 above it."""
    from sklearn.tree import DecisionTreeClassifier

    model = DecisionTreeClassifier(max_depth=1).fit([[0.1], [0.2]], [0, 1])
    threshold = from_model(model).trees[0].threshold[0]
    assert threshold == (float(np.float32(0.1)) + float(np.float32(0.2))) / 2
    row = np.array([[0.150000001]])
    assert row[0, 0] < threshold < float(np.float32(row[0, 0]))
    s = audit_conditioning(model, np.vstack([row, [[0.1]], [[0.3]]])).summary()
    assert s["rows_changed_precision"] == 1 and s["largest_change_precision"] == 1.0
    assert s["rows_changed"] == 0  # no row equals the threshold, in float32 or float64


@pytest.mark.parametrize("library", ["xgboost", "lightgbm", "catboost", "sklearn"])
def test_audit_walks_only_the_rows_that_can_move_and_misses_none(library):
    """The audit re-walks only rows on a threshold (operators) or changed by rounding
    (precisions); its outputs equal full predictions under each setting."""
    X, X_test = h.lattice_data()
    X_test[:50, 3] = np.round(X_test[:50, 3], 1)  # decimals: float32 rounding moves them
    if library == "sklearn":
        model = h.sklearn_models("binary")[1][1]
    else:
        model = getattr(h, f"{library}_model")("binary")
    imported = from_model(model.fit(X, h.target(X, "binary")))
    rows = np.vstack([X_test, h.on_threshold_rows(imported, X_test)])
    out = audit_conditioning(imported, rows).predictions
    other = {"float32": "float64", "float64": "float32"}[imported.precision]
    np.testing.assert_allclose(out["other"], imported.output(rows, imported.other_op))
    np.testing.assert_allclose(out["native"], imported.output(rows))
    np.testing.assert_allclose(out["precision"], imported.output(rows, precision=other))
    if "half" in out:
        np.testing.assert_allclose(out["half"], imported.output(rows, "half"))


def test_the_headline_names_what_changes_and_where():
    """Probabilities that move without a class change are said so; a share of the features."""
    import pandas as pd

    from trees.interop import train_demo_model

    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.integers(0, 4, size=(300, 3)).astype(float), columns=["a", "b", "c"])
    y = (X["a"] + rng.normal(0, 2, 300) > 2).astype(int).to_numpy()
    audit = audit_conditioning(train_demo_model("sklearn", X.to_numpy(), y), X)
    s = audit.summary()
    sentence = audit.headline()
    if s["class_changes"]:
        assert f"{s['class_changes']:,} of 300 rows" in sentence and "predicted class" in sentence
    elif s["rows_changed"]:
        assert "predicted probabilities (never their class)" in sentence
    k = len(s["affected_features"])
    assert (f"{k} of the 3 features" in sentence) or (k == 3 and "every feature" in sentence)


def _stump(left, right, library="sklearn"):
    """An ImportedModel of one regression stump at x <= 1 with the given leaf values."""
    from trees.interop import ImportedModel
    from trees.interop._build import make_tree

    tree = make_tree([0, -1, -1], [1.0, np.nan, np.nan], [1, -1, -1], [2, -1, -1],
                     [0.0, left, right], 1, "float64")  # fmt: skip
    return ImportedModel(
        library=library, kind="stump", task="regression", trees=[tree], tree_weight=[1.0],
        tree_output=[0], base_score=[0.0], link="identity", native_op="<=",
        precision="float64", missing_left=[np.zeros(3, bool)],
        missing_kind=[np.zeros(3, np.int8)], classes_=None, n_features=1,
    )  # fmt: skip


def test_a_change_below_the_output_precision_is_rounding_not_a_change():
    from trees.interop._audit import CHANGE_TOLERANCE

    rows = np.array([[1.0], [0.0], [2.0]])
    noise = _stump(0.3, 0.3 + 5e-17)
    s = audit_conditioning(noise, rows).summary()
    assert s["rows_on_threshold"] == 1 and s["rows_changed"] == 0 and s["largest_change"] == 0
    assert s["change_tolerance"] == CHANGE_TOLERANCE["float64"] == 2.0**-40
    real = audit_conditioning(_stump(0.3, 0.31), rows).summary()
    assert real["rows_changed"] == 1 and real["largest_change"] == pytest.approx(0.01)
    # XGBoost outputs float32: a change of 1e-7 is below its resolution, 1e-5 is not
    assert audit_conditioning(_stump(0.3, 0.3 + 1e-7, "xgboost"), rows).summary()[
        "rows_changed"] == 0  # fmt: skip
    assert audit_conditioning(_stump(0.3, 0.3 + 1e-5, "xgboost"), rows).summary()[
        "rows_changed"] == 1  # fmt: skip


def _special_models():
    """Models whose trees the walks read node by node: LightGBM categorical splits and
    zero_as_missing, and CatBoost with missing values sent right."""
    import catboost as cb
    import lightgbm as lgb

    X, X_test = h.lattice_data()
    y = h.target(X, "binary")
    codes = np.nan_to_num(X.copy())
    codes[:, 0] = np.abs(codes[:, 0]).astype(int)
    params = {"n_estimators": 6, "num_leaves": 7, "verbose": -1, "n_jobs": 1,
              "min_child_samples": 5, "min_data_per_group": 5, "cat_smooth": 1}  # fmt: skip
    categorical = lgb.LGBMClassifier(**params).fit(codes, y, categorical_feature=[0])
    zero = lgb.LGBMClassifier(zero_as_missing=True, **params).fit(np.nan_to_num(X), y)
    catboost = cb.CatBoostClassifier(iterations=6, depth=3, thread_count=1, verbose=0,
                                     nan_mode="Max", allow_writing_files=False).fit(X, y)  # fmt: skip
    return [(categorical, X_test), (zero, np.where(np.isnan(X_test), 0.0, X_test)),
            (catboost, X_test)]  # fmt: skip


@pytest.mark.parametrize(
    "case", range(3), ids=["lightgbm-categorical", "lightgbm-zero", "catboost"]
)
def test_the_audit_of_trees_read_node_by_node_equals_full_predictions(case):
    model, X_test = _special_models()[case]
    imported = from_model(model)
    rows = np.vstack([X_test, h.on_threshold_rows(imported, X_test)])
    rows[::9, 1] = np.nan
    out = audit_conditioning(imported, rows, n_jobs=1).predictions
    np.testing.assert_allclose(out["native"], h.library_prediction(model, rows), atol=1e-9)
    np.testing.assert_allclose(out["other"], imported.output(rows, imported.other_op))
    other = {"float32": "float64", "float64": "float32"}[imported.precision]
    np.testing.assert_allclose(out["precision"], imported.output(rows, precision=other))


def test_catboost_levels_walk_as_its_expanded_trees_under_every_test():
    from trees.interop._predict import cast_rows, raw_scores

    model, X_test = _special_models()[2]
    imported = from_model(model)
    rows = cast_rows(np.vstack([X_test, h.on_threshold_rows(imported, X_test)]), "float32")
    for conditioning in ("native", "<", "half"):
        flags = imported.strict_flags(conditioning)
        levels = raw_scores(imported.packed(), rows, flags, float32_rows=True)
        nodes = raw_scores(imported.packed(), rows, flags, float32_rows=False)
        np.testing.assert_allclose(levels, nodes, atol=1e-12)
    assert np.abs(imported.output(rows, "<") - imported.output(rows)).max() > 0


@pytest.mark.parametrize("max_depth", [5, None], ids=["shallow", "deep"])
def test_the_audit_is_exact_under_the_schedule_of_its_trees_depth(max_depth):
    """``walk_plan``'s one rule: trees of at most ``SHALLOW_DEPTH`` lock-step levels walk in
    lock-step, deeper ones tree by tree, under one test or both (the audit's ``"average"``,
    a row's two paths stepped together under either schedule); the audit is exact either way."""
    from sklearn.ensemble import RandomForestClassifier

    from trees.tree._kernels_traversal import SCHEDULES, SHALLOW_DEPTH, walk_schedule
    from trees.tree._operators import OPERATOR_CODES

    rng = np.random.default_rng(2)
    X = np.column_stack([rng.integers(0, 30, (3000, 3)), rng.normal(size=(3000, 2))])
    y = (X[:, 0] + X[:, 1] - X[:, 2] + rng.normal(0, 12, 3000) > 15).astype(int)
    model = RandomForestClassifier(n_estimators=6, max_depth=max_depth, random_state=0).fit(X, y)
    imported = from_model(model)
    packed = imported.packed()
    deep = packed.depths.mean() > SHALLOW_DEPTH
    assert deep == (max_depth is None)
    expected = SCHEDULES["tree by tree" if deep else "lock-step"]
    for op in ("<=", "average"):
        walk = packed.walk(np.full(len(packed.roots), OPERATOR_CODES[op]))
        assert walk_schedule(walk) == expected
    rows = np.vstack([X[:500], h.on_threshold_rows(imported, X[:500])])
    audit = audit_conditioning(imported, rows, n_jobs=1)
    out = audit.predictions
    np.testing.assert_allclose(out["native"], model.predict_proba(rows))
    np.testing.assert_allclose(out["other"], imported.output(rows, "<"))
    np.testing.assert_allclose(out["half"], imported.output(rows, "half"))
    changed = np.abs(out["other"] - out["native"]).max(axis=1) > 0
    assert changed.sum() == audit.headline_figures()["rows_changed"] > 0
    assert (audit.rows["thresholds_met"].to_numpy()[changed] > 0).all()


def test_the_tables_computed_on_first_use_are_computed_once_for_every_thread(stump):
    """An audit the app caches is shared by sessions: concurrent first reads agree."""
    from concurrent.futures import ThreadPoolExecutor

    audit = audit_conditioning(stump, np.array([[1.0], [3.0], [3.0], [5.0]]))
    with ThreadPoolExecutor(4) as pool:
        features = list(pool.map(lambda _: audit.features, range(8)))
        flips = list(pool.map(lambda _: audit.flips, range(8)))
    assert all(f is features[0] for f in features) and all(f is flips[0] for f in flips)
    assert list(features[0].columns[:3]) == ["feature", "lattice", "n_values"]
    assert flips[0]["rows_on_it"].tolist() == [2]


def _counts_by_hand(imported, rows):
    """Per row the trees where the two tests part, per (tree, node) the rows parting there
    and the rows whose path under the model's test meets the threshold: node by node."""
    strict = imported.native_op == "<"
    parted, parting, on_path = np.zeros(len(rows), dtype=int), {}, {}
    for i, x in enumerate(rows):
        for t, tree in enumerate(imported.trees):
            node, first = 0, None
            while tree.left[node] >= 0:
                value, threshold = x[tree.feature[node]], tree.threshold[node]
                if value == threshold:
                    first = node if first is None else first
                    on_path[t, node] = on_path.get((t, node), 0) + 1
                left = value < threshold if strict else value <= threshold
                node = tree.left[node] if left else tree.right[node]
            if first is not None:
                parted[i] += 1
                parting[t, first] = parting.get((t, first), 0) + 1
    return parted, parting, on_path


@pytest.mark.parametrize("kind", ["forest depth 4", "forest unbounded", "xgboost"])
def test_where_the_tests_part_and_the_path_ties_equal_a_node_by_node_count(kind):
    """The counts the audit reads from the one walk's leaves (``_walk``) equal a walk of
    every node in Python: shallow trees (lock-step), deep ones (tree by tree), ``x < t``."""
    from sklearn.ensemble import RandomForestClassifier

    X, X_test = h.lattice_data(missing=False)
    if kind == "xgboost":
        model = h.xgboost_model("binary")
    else:
        depth = 4 if kind == "forest depth 4" else None
        model = RandomForestClassifier(n_estimators=5, max_depth=depth, random_state=0)
    imported = from_model(model.fit(X, h.target(X, "binary")))
    rows = np.vstack([X_test, h.on_threshold_rows(imported, X_test)])
    rows = imported.cast(rows)
    audit = audit_conditioning(imported, rows, n_jobs=1)
    parted, parting, on_path = _counts_by_hand(imported, rows)
    np.testing.assert_array_equal(audit.rows["thresholds_met"], parted)
    per_tree = np.bincount([t for t, _ in parting], weights=list(parting.values()),
                           minlength=imported.n_trees)  # fmt: skip
    np.testing.assert_array_equal(audit.trees["rows_on_threshold"], per_tree)
    flips = {(r.tree, r.node): r.rows_on_it for r in audit.flips.itertuples()}
    assert flips == on_path and parted.sum() > 0
