"""Compile (or load from numba's on-disk cache) the kernels of :mod:`trees.interop` ahead of use."""

import numpy as np
from sklearn.ensemble import RandomForestClassifier

from ._audit import audit_conditioning
from ._predict import leaf_nodes
from ._probes import threshold_probes
from ._registry import from_model

__all__ = ["warm_up"]


def warm_up():
    """Audit a tiny scikit-learn forest once: every kernel the audit, the probes and the
    parity report call runs.

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
    audit_conditioning(forest, probes[probes.attrs["feature_columns"]].to_numpy())
    imported = from_model(forest)  # the parity report's walk to each row's leaves
    leaf_nodes(imported.packed(), imported.cast(X), imported.strict_flags("native"))
