"""scikit-learn's ensemble protocol for the forests: :class:`EnsembleProtocol`.

What scikit-learn's ``BaseEnsemble`` and ``BaseForest`` give every forest, and code written
for them reads: the forest as a container of its fitted trees (``len(forest)``,
``forest[i]``, ``for tree in forest``), the kind of tree it grows (``estimator``, an unfitted
tree with the tree's defaults; ``estimator_`` after a fit, the template the trees were copied
from, with the forest's settings) and the rows each tree was grown on
(``estimators_samples_``).
"""

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ._bootstrap import bootstrap_indices

__all__ = ["EnsembleProtocol"]


class EnsembleProtocol:
    """scikit-learn's container protocol, ``estimator`` and ``estimators_samples_``.

    A forest using it sets, when fitted, ``estimators_`` (its trees, each
    with its bootstrap seed as ``random_state``), ``_n_samples`` (rows
    given), ``_n_samples_bootstrap`` (rows each bootstrap sample draws; None
    without bootstrap) and ``_sample_weight`` (the probabilities of the
    draws, None for uniform), scikit-learn's names, and has ``_tree_class``,
    the class of its trees.
    """

    def __len__(self):
        """The number of fitted trees."""
        check_is_fitted(self, "estimators_")
        return len(self.estimators_)

    def __getitem__(self, index):
        """The ``index``'th fitted tree (or a list of them for a slice)."""
        check_is_fitted(self, "estimators_")
        return self.estimators_[index]

    def __iter__(self):
        """The fitted trees in order."""
        check_is_fitted(self, "estimators_")
        return iter(self.estimators_)

    def __bool__(self):
        # An estimator is true whether fitted or not: without this, ``__len__`` would make
        # ``if forest:`` raise for an unfitted forest.
        return True

    @property
    def estimator(self):
        """The kind of tree the forest grows: an unfitted tree of ``_tree_class`` with its
        defaults (scikit-learn's ``estimator``; the forest passes its own settings on)."""
        return self._tree_class()

    @property
    def estimators_samples_(self):
        """The rows each tree was grown on: its bootstrap sample's indices, repeats included
        (every row without bootstrap), as scikit-learn's forests give them.

        Drawn again from each tree's seed at every access (the forest does not
        keep them), the same draws the fit made (``_bootstrap.bootstrap_indices``).

        Returns
        -------
        list of ndarray of int32
        """
        check_is_fitted(self, "estimators_")
        if self._n_samples_bootstrap is None:
            return [np.arange(self._n_samples, dtype=np.int32) for _ in self.estimators_]
        return [
            bootstrap_indices(
                tree.random_state, self._n_samples, self._n_samples_bootstrap, self._sample_weight
            ).astype(np.int32, copy=False)
            for tree in self.estimators_
        ]
