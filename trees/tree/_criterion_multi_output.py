"""The criteria of multi-output trees: several targets scored at once, as scikit-learn's.

scikit-learn grows one tree for a ``y`` of shape ``(n_samples, n_outputs)``: a node's impurity
is the mean of its outputs' impurities (Gini or entropy of each output's classes, or each
target's variance), and a split's gain the mean of the outputs' gains (its ``Criterion``
sums each output's impurity and divides by ``n_outputs``). These classes give the lab's
criterion interface (``_criterion.Criterion``) those formulas, compiled once in
``_kernels_multi_output``, on statistics whose first row is the weight (that module's
docstring gives the layout). A single-output fit never builds one: its criteria, statistics
and trees are unchanged.

Node values are laid out output after output, each output padded to the most classes of any
(``max_n_classes``): a node's row of ``Tree.value`` is scikit-learn's ``value[node]``
flattened, ``(n_outputs, max_n_classes)`` in C order (``Tree.output_values`` gives that shape).
"""

import numpy as np

from ._criterion import Criterion, Poisson, RegressionCriterion, _safe_divide

__all__ = [
    "MULTI_OUTPUT_CRITERIA",
    "MultiOutputClassification",
    "MultiOutputEntropy",
    "MultiOutputFriedmanMSE",
    "MultiOutputGini",
    "MultiOutputPoisson",
    "MultiOutputSquaredError",
]


class MultiOutputClassification(Criterion):
    """Classification of several outputs: ``n_classes[j]`` classes for output ``j``."""

    def __init__(self, n_classes):
        self.n_classes = tuple(int(c) for c in n_classes)
        self.n_outputs = len(self.n_classes)

    @property
    def max_n_classes(self):
        """The most classes of any output (the width of each output's values)."""
        return max(self.n_classes)

    def row_statistics(self, y_encoded, sample_weight, n_classes=None):
        """Per-row statistics ``(w, one-hot weights of output 0, of output 1, ...)``.

        Parameters
        ----------
        y_encoded : ndarray of shape (n_samples, n_outputs), int
            Class indices of each output, in ``range(n_classes[j])``.
        sample_weight : ndarray of shape (n_samples,)

        Returns
        -------
        ndarray of shape (1 + sum(n_classes), n_samples)
        """
        n = y_encoded.shape[0]
        stats = np.zeros((1 + sum(self.n_classes), n))
        stats[0] = sample_weight
        first = 1
        for j, width in enumerate(self.n_classes):
            stats[first + y_encoded[:, j], np.arange(n)] = sample_weight
            first += width
        return stats

    @staticmethod
    def weight(stats):
        """Total weight of the rows summarised by ``stats`` (the first statistic)."""
        return stats[0]

    def value(self, stats):
        """Each output's class shares, padded to ``max_n_classes``: shape
        ``stats.shape[1:] + (n_outputs * max_n_classes,)``."""
        stats = np.asarray(stats, dtype=np.float64)
        width = self.max_n_classes
        out = np.zeros((self.n_outputs * width, *stats.shape[1:]))
        first = 1
        for j, n_classes in enumerate(self.n_classes):
            block = stats[first : first + n_classes]
            out[j * width : j * width + n_classes] = _safe_divide(block, stats[0])
            first += n_classes
        return np.moveaxis(out, 0, -1)


class MultiOutputGini(MultiOutputClassification):
    r"""Mean over outputs of the Gini impurity, :math:`\frac1k \sum_j (1 - \sum_c p_{jc}^2)`."""

    name = "multi_output_gini"


class MultiOutputEntropy(MultiOutputClassification):
    r"""Mean over outputs of the entropy in bits, :math:`-\frac1k \sum_j \sum_c p_{jc}\log_2
    p_{jc}`."""

    name = "multi_output_entropy"


class MultiOutputSquaredError(RegressionCriterion):
    r"""Mean over targets of the weighted variance, :math:`\frac1k \sum_j \mathrm{Var}_w(y_j)`.

    Statistics ``(w, w y_1, w y_1^2, ..., w y_k, w y_k^2)`` of the centred targets (each
    minus its weighted mean, as the single-output regressor centres its one).
    """

    name = "multi_output_squared_error"

    def __init__(self, n_outputs):
        self.n_outputs = int(n_outputs)

    @staticmethod
    def row_statistics(y, sample_weight, n_classes=None):
        """Per-row statistics, shape ``(1 + 2 * n_outputs, n_samples)``; ``y`` of shape
        ``(n_samples, n_outputs)``."""
        y = np.asarray(y, dtype=np.float64)
        stats = np.empty((1 + 2 * y.shape[1], y.shape[0]))
        stats[0] = sample_weight
        weighted = sample_weight[:, None] * y
        stats[1::2] = weighted.T
        stats[2::2] = (weighted * y).T
        return stats

    @staticmethod
    def value(stats):
        """Each target's weighted mean (of the centred targets: the builder adds the offsets),
        shape ``stats.shape[1:] + (n_outputs,)``."""
        stats = np.asarray(stats, dtype=np.float64)
        return np.moveaxis(_safe_divide(stats[1::2], stats[0]), 0, -1)


class MultiOutputFriedmanMSE(MultiOutputSquaredError):
    r"""The squared error with Friedman's improvement, the mean of the outputs',
    :math:`G = \frac1k \sum_j (w_R S_{Lj} - w_L S_{Rj})^2 / (w_L w_R w)`: the squared error's
    splits, as scikit-learn 1.9's ``"friedman_mse"`` (``_kernels_multi_output``)."""

    name = "multi_output_friedman_mse"


class MultiOutputPoisson(MultiOutputSquaredError):
    r"""Mean over targets of the half Poisson deviance (scikit-learn's ``"poisson"``), on
    statistics ``(w, w y_1, w y_1 \log y_1, ...)`` of the targets as given (not centred)."""

    name = "multi_output_poisson"
    centres_targets = False

    @staticmethod
    def row_statistics(y, sample_weight, n_classes=None):
        """Per-row statistics, shape ``(1 + 2 * n_outputs, n_samples)``.

        Raises
        ------
        ValueError
            As the single-output ``Poisson``, output by output: a negative target, or an
            output whose weighted sum is not positive (scikit-learn checks the sum of all
            outputs; a target that is 0 everywhere has no Poisson mean to fit).
        """
        y = np.asarray(y, dtype=np.float64)
        stats = np.empty((1 + 2 * y.shape[1], y.shape[0]))
        stats[0] = sample_weight
        for j in range(y.shape[1]):
            _, stats[1 + 2 * j], stats[2 + 2 * j] = Poisson.row_statistics(y[:, j], sample_weight)
        return stats


# The multi-output criterion of each criterion name an estimator accepts for several targets.
MULTI_OUTPUT_CRITERIA = {
    "gini": MultiOutputGini,
    "entropy": MultiOutputEntropy,
    "log_loss": MultiOutputEntropy,
    "squared_error": MultiOutputSquaredError,
    "friedman_mse": MultiOutputFriedmanMSE,
    "poisson": MultiOutputPoisson,
}
