"""Compile (or load from numba's on-disk cache) the kernels of :mod:`trees.interop` ahead of use."""

import numpy as np
from sklearn.ensemble import RandomForestClassifier

from ._audit import audit_conditioning
from ._catboost import from_catboost
from ._predict import leaf_nodes
from ._probes import threshold_probes
from ._registry import from_model

__all__ = ["warm_up"]

# The smallest CatBoost export: one oblivious tree of one level (its walk has a kernel of its own).
_CATBOOST_STUMP = {
    "oblivious_trees": [{"splits": [{"float_feature_index": 0, "border": 3.5,
                                     "split_type": "FloatFeature"}],
                         "leaf_values": [0.0, 1.0]}],
    "features_info": {"float_features": [{"feature_index": 0, "flat_feature_index": 0,
                                          "nan_value_treatment": "AsIs"}]},
    "model_info": {"params": {"loss_function": {"type": "RMSE"}}},
    "scale_and_bias": [1.0, [0.0]],
}  # fmt: skip


def warm_up():
    """Audit a tiny scikit-learn forest once: every kernel the audit, the probes and the
    parity report call runs; then predict with a one-level CatBoost tree (the oblivious walk).

    The audit is run on the forest's probe rows, which sit on its thresholds, so the walks
    that only rows on a threshold take (the "average", "half" and precision comparisons)
    are compiled too.

    Like :func:`trees.warm_up`, safe from any thread; the app runs it in the background when
    its server starts, so the first model a visitor opens does not wait for the compiler.
    """
    X = np.repeat(np.arange(8, dtype=np.float64), 2).reshape(-1, 2)
    y = (X[:, 0] > 3).astype(int)
    forest = RandomForestClassifier(n_estimators=2, max_depth=2, random_state=0).fit(X, y)
    probes = threshold_probes(forest, X)
    audit = audit_conditioning(forest, probes[probes.attrs["feature_columns"]].to_numpy())
    audit.flips  # noqa: B018 (its per-node count has a kernel of its own)
    from_catboost(_CATBOOST_STUMP).predict(X[:, :1])
    imported = from_model(forest)  # the parity report's walk to each row's leaves
    leaf_nodes(imported.packed(), imported.cast(X), imported.strict_flags("native"))
