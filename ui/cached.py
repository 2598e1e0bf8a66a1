"""The heavy computations several pages share, cached so a widget change reruns only what depends on it.

Every function takes the dataset key (``state.dataset_key()``, a content
fingerprint) and the settings it depends on as hashed arguments; the arrays
themselves are passed as ``_``-prefixed arguments, which Streamlit does not
hash, so a rerun costs a dictionary lookup, not a hash of the data. Fitted
models are cached with ``st.cache_resource`` (shared, never mutated);
tables and arrays with ``st.cache_data``. What one page alone computes is
cached in that page's own package (``app_pages/<name>/cache.py``).
"""

import numpy as np

from trees.tasks import subsample, train_test_rows

from . import cache_budget

__all__ = ["SMALL", "SPLIT_BOOTSTRAPS", "as_key", "held_out_split", "sample"]

# Below this many rows nothing is held out: the model is fitted on all rows.
SMALL = 20
# Bootstrap samples of the training rows behind a split's win rate, on the Grow page and by
# default on the Tree instability page: both hold out the same rows (30%, seed 0), and the
# samples are drawn from one seed, so the same split shows the same rate on both (with 25 on
# one and 50 on the other, one split of the wine data read 60% and 46%).
SPLIT_BOOTSTRAPS = 50


@cache_budget.data(show_spinner=False, max_entries=32)
def sample(data_key, max_rows, seed, _X, _y):
    """At most ``max_rows`` rows of the dataset, and whether rows were dropped."""
    return subsample(_X, _y, max_rows, seed)


@cache_budget.data(show_spinner=False, max_entries=32)
def held_out_split(data_key, task, test_share, seed, _X, _y):
    """``X_train, X_test, y_train, y_test``; with fewer than ``SMALL`` rows, all rows for both."""
    if len(_y) < SMALL:
        return _X, _X, _y, _y
    train, test = train_test_rows(task, _y, test_share, seed)
    return _X[train], _X[test], _y[train], _y[test]


def as_key(params):
    """A dict of settings as a hashable, ordered tuple."""
    return tuple(
        sorted((k, v.item() if isinstance(v, np.generic) else v) for k, v in params.items())
    )
