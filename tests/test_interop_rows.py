"""The frames practitioners pass are read as each library reads them, or refused (issue 54).

One test per case of the issue, each against the library's own predict on a
model trained in the test: column order and names, pandas categorical
columns, HistGradientBoosting's categorical preprocessing, XGBoost's early
stopping and its ``missing=`` sentinel; equal to 1e-5, or refused with a
message naming the problem (``trees.interop._inputs``).
"""

import functools
import json

import numpy as np
import pandas as pd
import pytest

from trees.interop import ModelInputError, from_model, load_model_file

TOL = 1e-5


def _frame(n=500, seed=0):
    """Lattice and continuous columns with gaps, and a target depending on them."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "age": rng.integers(18, 70, n).astype(float),
        "income": rng.normal(50, 15, n).round(1),
        "visits": rng.integers(0, 6, n).astype(float),
    })  # fmt: skip
    X.loc[rng.random(n) < 0.1, "income"] = np.nan
    score = (X["age"] > 40).astype(int) + X["income"].fillna(50) / 30 - X["visits"] / 3
    y = (score + rng.normal(0, 0.4, n) > score.median()).astype(int).to_numpy()
    return X, y


def _with_category(X, seed=0):
    rng = np.random.default_rng(seed + 1)
    out = X.copy()
    out["plan"] = pd.Categorical(rng.choice(["basic", "plus", "pro", "team"], len(X)))
    out.loc[rng.random(len(X)) < 0.05, "plan"] = np.nan
    return out


def _category_target(X, seed=0):
    rng = np.random.default_rng(seed + 2)
    plan = X["plan"].astype(object)
    score = plan.isin(["plus", "team"]).astype(int) * 1.5 + (X["age"] > 40) - X["visits"] / 4
    return (score + rng.normal(0, 0.3, len(X)) > 0.5).astype(int).to_numpy()


def _close(ours, theirs):
    np.testing.assert_allclose(np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float),
                               atol=TOL, rtol=0)  # fmt: skip


@functools.cache
def _models():
    """One small model of each library, trained on a named frame with gaps."""
    import catboost as cb
    import lightgbm as lgb
    import xgboost as xgb
    from sklearn.ensemble import RandomForestClassifier

    X, y = _frame()
    return X, {
        "xgboost": xgb.XGBClassifier(n_estimators=20, max_depth=3, nthread=1).fit(X, y),
        "lightgbm": lgb.LGBMClassifier(n_estimators=20, num_leaves=7, n_jobs=1, verbose=-1).fit(
            X, y
        ),  # fmt: skip
        "catboost": cb.CatBoostClassifier(
            iterations=20, depth=3, thread_count=1, verbose=0, allow_writing_files=False
        ).fit(X, y),  # fmt: skip
        "sklearn": RandomForestClassifier(
            n_estimators=10, max_depth=5, n_jobs=1, random_state=0
        ).fit(X, y),  # fmt: skip
    }


# ------------------------------------------------------------------ 1. column order and names
@pytest.mark.parametrize("library", ["xgboost", "lightgbm", "catboost", "sklearn"])
def test_a_reordered_frame_is_read_by_name(library):
    X, models = _models()
    model = models[library]
    reordered = X[["visits", "age", "income"]]
    _close(from_model(model).predict_proba(reordered), model.predict_proba(X))


@pytest.mark.parametrize("library", ["xgboost", "lightgbm", "catboost", "sklearn"])
def test_names_that_do_not_match_are_refused_listing_both_sides(library):
    X, models = _models()
    renamed = X.rename(columns={"age": "Age", "income": "salary"})
    with pytest.raises(ModelInputError) as refusal:
        from_model(models[library]).predict_proba(renamed)
    message = str(refusal.value)
    assert "missing 'age', 'income'" in message and "unexpected 'Age', 'salary'" in message


@pytest.mark.parametrize("library", ["xgboost", "lightgbm", "catboost", "sklearn"])
def test_an_array_of_the_wrong_width_is_refused(library):
    X, models = _models()
    with pytest.raises(ModelInputError, match="takes 3 columns; the rows have 2"):
        from_model(models[library]).predict_proba(X.to_numpy()[:, :2])
    _close(from_model(models[library]).predict_proba(X.to_numpy()),
           models[library].predict_proba(X))  # fmt: skip


def test_an_extra_column_is_refused_by_name():
    X, models = _models()
    with pytest.raises(ModelInputError, match="unexpected 'id'"):
        from_model(models["xgboost"]).predict(X.assign(id=np.arange(len(X))))


def test_lightgbm_names_with_spaces_match_as_saved():
    import lightgbm as lgb

    X, y = _frame()
    spaced = X.rename(columns={"income": "yearly income"})
    model = lgb.LGBMClassifier(n_estimators=10, num_leaves=5, verbose=-1).fit(spaced, y)
    imported = from_model(model)
    assert "yearly_income" in imported.feature_names
    _close(imported.predict_proba(spaced[["yearly income", "visits", "age"]]),
           model.predict_proba(spaced))  # fmt: skip


def test_names_a_library_made_up_leave_the_frame_read_by_position():
    import lightgbm as lgb

    X, y = _frame()
    model = lgb.LGBMClassifier(n_estimators=10, num_leaves=5, verbose=-1).fit(X.to_numpy(), y)
    assert from_model(model).feature_names[0] == "Column_0"
    _close(from_model(model).predict_proba(X), model.predict_proba(X.to_numpy()))


# -------------------------------------------------------------- 2. pandas categorical columns
@functools.cache
def _categorical_models():
    import lightgbm as lgb
    import xgboost as xgb

    X = _with_category(_frame()[0])
    y = _category_target(X)
    return X, {
        "xgboost": xgb.XGBClassifier(n_estimators=20, max_depth=3, nthread=1,
                                     enable_categorical=True, max_cat_to_onehot=1).fit(X, y),
        "lightgbm": lgb.LGBMClassifier(n_estimators=20, num_leaves=7, n_jobs=1, verbose=-1,
                                       min_data_per_group=5, cat_smooth=1).fit(X, y),
    }  # fmt: skip


@pytest.mark.parametrize("library", ["xgboost", "lightgbm"])
def test_categorical_columns_are_read_as_the_library_codes_them(library):
    X, models = _categorical_models()
    model = models[library]
    imported = from_model(model)
    assert any(c is not None for t in imported.trees for c in t.categories)
    _close(imported.predict_proba(X), model.predict_proba(X))
    # categories listed in another order, and the frame reordered: the same codes
    shuffled = X.assign(plan=X["plan"].cat.reorder_categories(["team", "pro", "basic", "plus"]))
    _close(imported.predict_proba(shuffled[["plan", "visits", "income", "age"]]),
           model.predict_proba(X))  # fmt: skip
    # text read from a file: mapped through the stored categories
    as_text = X.assign(plan=X["plan"].astype(object))
    _close(imported.predict_proba(imported.frame_from_table(as_text)), model.predict_proba(X))


def test_an_unseen_category_is_refused_for_xgboost_and_missing_for_lightgbm():
    X, models = _categorical_models()
    unseen = X.assign(plan=X["plan"].cat.add_categories(["gold"]))
    unseen.loc[:4, "plan"] = "gold"
    with pytest.raises(ModelInputError, match="'plan' holds categories .* never saw.*'gold'"):
        from_model(models["xgboost"]).predict_proba(unseen)
    lightgbm = models["lightgbm"]
    _close(from_model(lightgbm).predict_proba(unseen), lightgbm.predict_proba(unseen))


@pytest.mark.parametrize("library", ["xgboost", "lightgbm"])
def test_numbers_where_the_model_stores_categories_are_refused(library):
    X, models = _categorical_models()
    coded = X.assign(plan=X["plan"].cat.codes.astype(float))
    with pytest.raises(ModelInputError, match="'plan' is categorical .* hold numbers"):
        from_model(models[library]).predict_proba(coded)
    with pytest.raises(ModelInputError, match="'age' is categorical, but the model reads it"):
        from_model(models[library]).predict_proba(X.assign(age=X["age"].astype("category")))


# ---------------------------------------------- 3. HistGradientBoosting's categorical features
@pytest.mark.parametrize("informative", [False, True], ids=["no-categorical-split", "splits"])
def test_hist_gradient_boosting_from_dtype_is_read_as_its_preprocessor(informative):
    from sklearn.ensemble import HistGradientBoostingClassifier

    X = _with_category(_frame()[0])[["age", "plan", "income", "visits"]]
    y = _category_target(X)
    if not informative:  # one category: no split on it, but its column still moves first
        X = X.assign(plan=pd.Categorical(["basic"] * len(X), categories=["basic", "plus"]))
    model = HistGradientBoostingClassifier(max_iter=15, max_depth=4, random_state=0).fit(X, y)
    imported = from_model(model)
    assert imported.feature_names[0] == "plan"  # the encoded column comes first
    has_sets = any(c is not None for t in imported.trees for c in t.categories)
    assert has_sets == informative
    _close(imported.predict_proba(X), model.predict_proba(X))
    unseen = X.assign(plan=X["plan"].cat.add_categories(["gold"]))
    unseen.loc[:9, "plan"] = "gold"  # unknown: the node's missing way, as its encoder makes it
    _close(imported.predict_proba(unseen[["visits", "plan", "age", "income"]]),
           model.predict_proba(unseen))  # fmt: skip


def test_hist_gradient_boosting_categorical_mask_on_an_array_reads_category_values():
    from sklearn.ensemble import HistGradientBoostingRegressor

    rng = np.random.default_rng(3)
    X = np.column_stack([rng.choice([10.0, 20.0, 35.0], 400), rng.normal(size=400)])
    y = np.where(X[:, 0] == 20.0, 3.0, 0.0) + X[:, 1]
    model = HistGradientBoostingRegressor(max_iter=10, categorical_features=[True, False],
                                          random_state=0).fit(X, y)  # fmt: skip
    rows = X.copy()
    rows[:5, 0] = [np.nan, 99.0, 10.0, 20.0, 35.0]
    _close(from_model(model).predict(rows), model.predict(rows))


# ------------------------------------------------------------------ 4. XGBoost early stopping
@functools.cache
def _early_stopped():
    import xgboost as xgb

    X, y = _frame(800)
    model = xgb.XGBClassifier(n_estimators=300, max_depth=3, learning_rate=0.3, nthread=1,
                              early_stopping_rounds=5)  # fmt: skip
    model.fit(X[:500], y[:500], eval_set=[(X[500:], y[500:])], verbose=False)
    return X, model


def test_early_stopping_uses_the_trees_the_wrapper_predicts_with(tmp_path):
    import xgboost as xgb

    X, model = _early_stopped()
    best = model.best_iteration
    assert best + 1 < 300
    imported = from_model(model)
    assert imported.n_trees == best + 1
    assert imported.trees_used.startswith(f"trees 1-{best + 1} of ")
    assert "best iteration" in imported.trees_used
    _close(imported.predict_proba(X), model.predict_proba(X))
    model.save_model(tmp_path / "model.json")
    loaded = xgb.XGBClassifier()
    loaded.load_model(tmp_path / "model.json")
    from_file = load_model_file("model.json", (tmp_path / "model.json").read_bytes())
    _close(from_file.predict_proba(X), loaded.predict_proba(X))


def test_a_booster_predicts_with_every_tree_and_says_so():
    import xgboost as xgb

    X, model = _early_stopped()
    booster = model.get_booster()
    imported = from_model(booster)
    n_stored = len(booster.get_dump())
    assert imported.n_trees == n_stored
    assert imported.trees_used.startswith(f"all {n_stored} trees")
    _close(imported.predict_proba(X)[:, 1], booster.predict(xgb.DMatrix(X)))


# ------------------------------------------------------------- 5. XGBoost's missing= sentinel
def test_the_wrapper_sentinel_is_read_as_missing():
    import xgboost as xgb

    X, y = _frame()
    gappy = X.fillna(-1.0)
    gappy.loc[::7, "age"] = -1.0
    model = xgb.XGBClassifier(n_estimators=20, max_depth=3, nthread=1, missing=-1.0)
    model.fit(gappy, y)
    rows = gappy.copy()
    rows.loc[::5, "visits"] = -1.00000001  # -1 in float32, XGBoost's precision
    _close(from_model(model).predict_proba(rows), model.predict_proba(rows))


def test_a_booster_or_a_file_is_told_the_sentinel(tmp_path):
    import xgboost as xgb

    X, y = _frame()
    gappy = X.fillna(-1.0)
    booster = xgb.train({"max_depth": 3, "objective": "binary:logistic", "nthread": 1},
                        xgb.DMatrix(gappy, y, missing=-1.0), num_boost_round=15)  # fmt: skip
    expected = booster.predict(xgb.DMatrix(gappy, missing=-1.0))
    _close(from_model(booster, missing=-1.0).predict_proba(gappy)[:, 1], expected)
    booster.save_model(tmp_path / "m.json")
    document = json.loads((tmp_path / "m.json").read_text())
    _close(from_model(document).with_missing_value(-1).predict_proba(gappy)[:, 1], expected)
    with pytest.raises(ValueError, match="Only XGBoost"):
        from_model(_models()[1]["lightgbm"]).with_missing_value(-1)


# ------------------------------------------------------------------------- 6. gaps refused
def test_a_model_whose_library_refuses_gaps_refuses_them():
    from sklearn.ensemble import GradientBoostingClassifier

    X, y = _frame()
    model = GradientBoostingClassifier(n_estimators=5, random_state=0).fit(X.fillna(0), y)
    with pytest.raises(ModelInputError, match="does not accept missing values.*'income'"):
        from_model(model).predict_proba(X)
    _close(from_model(model).predict_proba(X.fillna(0)), model.predict_proba(X.fillna(0)))


def test_nullable_integer_and_boolean_columns_are_numbers():
    X, models = _models()
    model = models["xgboost"]
    nullable = X.assign(age=X["age"].astype("Int64"), visits=X["visits"].astype("Int64"))
    nullable.loc[:3, "age"] = pd.NA
    expected = X.copy()
    expected.loc[:3, "age"] = np.nan
    _close(from_model(model).predict_proba(nullable), model.predict_proba(expected))
    with pytest.raises(ModelInputError, match="'visits' holds .* values \\(e.g. 'few'\\)"):
        from_model(model).predict(X.assign(visits="few"))
