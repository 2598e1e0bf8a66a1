"""Small models of every library trained on lattice data, for the trees.interop tests.

The data: three integer-valued columns (thresholds fall on observed values
or half-way between them) and one continuous column; NaN in 10% of the
cells for the libraries that accept missing values.
"""

import numpy as np

N_ROWS = 300


def lattice_data(seed=0, n_rows=N_ROWS, missing=True):
    """(X_train, X_test) with integer columns 0-2 and a continuous column 3."""
    rng = np.random.default_rng(seed)
    X = np.column_stack(
        [rng.integers(0, 6, size=(2 * n_rows, 3)), rng.normal(size=2 * n_rows)]
    ).astype(float)
    if missing:
        X[rng.random(X.shape) < 0.1] = np.nan
    return X[:n_rows], X[n_rows:]


def target(X, task, seed=0):
    """A target depending on the integer columns: 2 or 3 classes, or a value."""
    rng = np.random.default_rng(seed + 1)
    score = np.nan_to_num(X[:, 0]) + np.nan_to_num(X[:, 1]) - 0.5 * np.nan_to_num(X[:, 2])
    score = score + np.nan_to_num(X[:, 3]) * 0.5 + rng.normal(scale=0.5, size=X.shape[0])
    if task == "regression":
        return score
    if task == "binary":
        return (score > np.median(score)).astype(int)
    return np.digitize(score, np.quantile(score, [1 / 3, 2 / 3]))


def on_threshold_rows(imported, X, limit=400, seed=0):
    """Rows of X with one value set exactly on a split's threshold (one per split, capped)."""
    rng = np.random.default_rng(seed)
    rows = []
    for tree in imported.trees:
        for node in np.flatnonzero(tree.feature >= 0):
            if tree.categories[node] is not None or not np.isfinite(tree.threshold[node]):
                continue
            row = X[rng.integers(X.shape[0])].copy()
            row[tree.feature[node]] = tree.threshold[node]
            rows.append(row)
    rows = np.array(rows)
    if rows.shape[0] > limit:
        rows = rows[rng.choice(rows.shape[0], limit, replace=False)]
    return rows


def sklearn_models(task):
    """Small scikit-learn tree models for ``task`` (name, estimator, accepts NaN)."""
    from sklearn import ensemble, tree

    clf = task != "regression"
    kinds = [
        ("DecisionTree", tree.DecisionTreeClassifier if clf else tree.DecisionTreeRegressor,
         {"max_depth": 5}, True),
        ("RandomForest", ensemble.RandomForestClassifier if clf
         else ensemble.RandomForestRegressor, {"n_estimators": 4, "max_depth": 4, "n_jobs": 1}, True),
        ("ExtraTrees", ensemble.ExtraTreesClassifier if clf else ensemble.ExtraTreesRegressor,
         {"n_estimators": 4, "max_depth": 4, "n_jobs": 1}, True),
        ("GradientBoosting", ensemble.GradientBoostingClassifier if clf
         else ensemble.GradientBoostingRegressor, {"n_estimators": 4, "max_depth": 3}, False),
        ("HistGradientBoosting", ensemble.HistGradientBoostingClassifier if clf
         else ensemble.HistGradientBoostingRegressor, {"max_iter": 4, "max_depth": 3}, True),
    ]  # fmt: skip
    return [(name, cls(random_state=0, **params), nan) for name, cls, params, nan in kinds]


def xgboost_model(task):
    import xgboost as xgb

    params = {"n_estimators": 4, "max_depth": 3, "nthread": 1, "random_state": 0}
    return xgb.XGBRegressor(**params) if task == "regression" else xgb.XGBClassifier(**params)


def lightgbm_model(task):
    import lightgbm as lgb

    params = {"n_estimators": 4, "num_leaves": 7, "n_jobs": 1, "verbose": -1,
              "min_child_samples": 5, "random_state": 0}  # fmt: skip
    return lgb.LGBMRegressor(**params) if task == "regression" else lgb.LGBMClassifier(**params)


def catboost_model(task):
    import catboost as cb

    params = {"iterations": 4, "depth": 3, "thread_count": 1, "verbose": 0, "random_seed": 0,
              "allow_writing_files": False}  # fmt: skip
    if task == "regression":
        return cb.CatBoostRegressor(**params)
    return cb.CatBoostClassifier(**params)


def library_prediction(model, X):
    """The library's own probabilities (classifiers) or values (regressors), 2-D or 1-D."""
    if hasattr(model, "predict_proba"):
        return np.asarray(model.predict_proba(X))
    return np.ravel(model.predict(X))


def library_raw(model, X):
    """The library's own raw scores (margins), shaped (n,) or (n, n_classes)."""
    module = type(model).__module__.split(".")[0]
    if module == "xgboost":
        return model.predict(X, output_margin=True)
    if module == "lightgbm":
        return model.predict(X, raw_score=True)
    if module == "catboost":
        return np.asarray(model.predict(X, prediction_type="RawFormulaVal"))
    if hasattr(model, "decision_function"):
        return model.decision_function(X)
    return model.predict(X)  # a regressor's raw score is its prediction
