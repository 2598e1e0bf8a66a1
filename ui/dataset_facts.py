"""Facts about a dataset that need the tree package: source 000's lattice flags.

``datasets`` does not depend on ``trees``; the app joins the two here.
"""

import numpy as np

from datasets import feature_kind
from trees import lattice_features

__all__ = ["feature_summary", "lattice_flags"]


def lattice_flags(dataset):
    """``{column: bool}``: source 000's lattice flag of each numeric feature."""
    numeric = [name for name in dataset.X.columns if feature_kind(dataset.X[name]) == "numeric"]
    if not numeric:
        return {}
    flags = lattice_features(dataset.X[numeric].to_numpy(dtype=np.float64, na_value=np.nan))
    return dict(zip(numeric, flags.tolist(), strict=True))


def feature_summary(dataset):
    """The dataset's per-feature summary with a ``lattice`` column (None for categorical features)."""
    summary = dataset.summary()
    flags = lattice_flags(dataset)
    summary["lattice"] = [flags.get(name) for name in dataset.X.columns]
    return summary
