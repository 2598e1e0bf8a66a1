"""Split criteria: node impurity and the score of a candidate split.

Every criterion works on *sufficient statistics* rather than on rows, so that
the split search can score all candidates with cumulative sums. Statistics
lie along the FIRST axis (one contiguous plane per statistic, which keeps the
vectorised arithmetic fast):

* classification: the weighted class counts, shape ``(C, ...)``;
* regression: ``(sum w, sum w*y, sum w*y**2)``, shape ``(3, ...)``.

The score of a candidate split, higher is better, is the gain of source 004,
section 4.1, for the impurity criteria::

    G = I(S) - w_L / w * I(S_L) - w_R / w * I(S_R)

Pearson's chi-square statistic for ``"chi2"`` (see :class:`ChiSquare`), and
source 004's own chi-square metric for ``"report_chi2"`` (see
:class:`ReportChiSquare`; in :data:`REPORT_CRITERIA`, beside
:data:`CRITERIA_CLF`).
To keep the search fast a criterion first computes a *proxy* that orders the
candidates of one node exactly as the score does (scikit-learn's "proxy
improvement"), and turns proxies into scores only where they are needed.

Each formula has one body, compiled (``_kernels_criteria``), which the split
search calls per candidate and the methods here call through compiled loops
over many nodes or candidates. A candidate is its left child's statistics and
its parent's (the right child is ``parent - left``). The readable numpy
formulas are the tests' reference (``tests/criterion_reference.py``).
"""

import numpy as np

from ._kernels_criteria import (
    KERNEL_IDS,
    acceptance_loop,
    candidate_loop,
    gain_loop,
    improvement_loop,
    node_loop,
    proxy,
    rule_impurity,
    score_from_proxy,
)
from ._kernels_criteria import impurity as node_impurity

__all__ = [
    "AbsoluteError",
    "CLASSIFIER_CRITERIA",
    "CRITERIA_CLF",
    "CRITERIA_REG",
    "REGRESSOR_CRITERIA",
    "REPORT_CRITERIA",
    "ROW_CRITERIA",
    "RegressionCriterion",
    "ChiSquare",
    "Entropy",
    "Gini",
    "Misclassification",
    "ReportChiSquare",
    "ReportMisclassification",
    "SquaredError",
    "FriedmanMSE",
    "check_targets_first",
]


def _safe_divide(num, den):
    """``num / den`` with 0 where ``den`` is 0 (empty children score nothing).

    The division runs only where ``den > 0`` (no warning to silence: a
    floating-point error context costs more than a small division).
    """
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _rows(stats, shape):
    """``stats`` (statistics along the first axis) broadcast to ``shape`` after that axis, as
    one C-contiguous row per node or candidate (the compiled loops' layout)."""
    stats = np.broadcast_to(stats, stats.shape[:1] + shape)
    return np.ascontiguousarray(stats.reshape(stats.shape[0], -1).T)


def _flat(values, shape):
    """``values`` broadcast to ``shape``, as one contiguous float64 row."""
    return np.ascontiguousarray(np.broadcast_to(values, shape), dtype=np.float64).ravel()


def _node_formula(formula, crit, stats):
    """``formula`` (``_kernels_criteria.impurity`` or ``rule_impurity``) of the statistics
    ``stats`` of shape ``(n_stats, ...)``, shape ``stats.shape[1:]``."""
    stats = np.asarray(stats, dtype=np.float64)
    shape = stats.shape[1:]
    out = np.empty(int(np.prod(shape)))
    node_loop(formula, crit)(_rows(stats, shape), out)
    return out.reshape(shape)[()]


def _candidate_formula(loop, first, parent, per_row=True):
    """``loop`` (a compiled loop over candidates) of ``first`` and ``parent`` (statistics of
    shape ``(n_stats, ...)``), broadcast against each other; ``per_row`` False: ``first``
    holds one value per candidate (a proxy), not statistics."""
    first = np.asarray(first, dtype=np.float64)
    parent = np.asarray(parent, dtype=np.float64)
    shape = np.broadcast_shapes(first.shape[1:] if per_row else first.shape, parent.shape[1:])
    out = np.empty(int(np.prod(shape)))
    loop(_rows(first, shape) if per_row else _flat(first, shape), _rows(parent, shape), out)
    return out.reshape(shape)[()]


class Criterion:
    """Interface shared by the classification and regression criteria.

    Statistics lie along the first axis of every array (module docstring);
    the formulas broadcast over the other axes. ``refuses_zero_gain``: whether
    a split whose gain is zero is refused (see :class:`Misclassification`;
    ``StoppingRules.accepts`` applies it); ``centres_targets``: whether a
    regression criterion's statistics may be sums of y minus its mean (not
    :class:`Poisson`'s); ``needs_rows``: whether impurities and values come
    from a node's rows rather than its statistics (:class:`AbsoluteError`).
    """

    name = ""
    is_classification = True
    refuses_zero_gain = False
    # Regression: whether the statistics may sum y centred on its mean (``_settings.regression_offset``).
    centres_targets = True
    needs_rows = False
    n_outputs = 1  # targets scored at once (several: ``_criterion_multi_output``)

    @property
    def kernel_id(self):
        """The criterion's id in the compiled formulas (``_kernels_criteria.KERNEL_IDS``)."""
        return KERNEL_IDS[self.name]

    def impurity(self, stats):
        """Impurity of the rows summarised by ``stats`` (shape ``stats.shape[1:]``;
        ``_kernels_criteria.impurity``)."""
        return _node_formula(node_impurity, self.kernel_id, stats)

    def rule_impurity(self, stats):
        """The impurity the node rules compare with ``EPSILON`` (at or below it a node is pure,
        a leaf): the criterion's own, except where an index never reaches 0
        (:class:`ReportMisclassification`; ``_kernels_criteria.rule_impurity``)."""
        return _node_formula(rule_impurity, self.kernel_id, stats)

    def proxy(self, left, parent):
        """A quantity ordering one node's candidates as :meth:`score` does
        (``_kernels_criteria.proxy``)."""
        return _candidate_formula(candidate_loop(proxy, self.kernel_id), left, parent)

    def score_from_proxy(self, proxies, parent):
        """Turn proxies into scores (``parent`` broadcasts against ``proxies``;
        ``_kernels_criteria.score_from_proxy``)."""
        loop = candidate_loop(score_from_proxy, self.kernel_id)
        return _candidate_formula(loop, proxies, parent, per_row=False)

    def score(self, left, parent):
        """Score of candidate splits (gain, or chi-square for ``"chi2"``)."""
        return self.score_from_proxy(self.proxy(left, parent), parent)

    def gain(self, left, parent):
        """Impurity decrease ``G``; equal to :meth:`score` except for the chi-squares, whose
        gain is Gini's (``_kernels_criteria.gain``)."""
        return _candidate_formula(gain_loop(self.kernel_id), left, parent)

    def accepts_score(self, score):
        """Whether a node may split on a candidate of this score (vectorised): always, except
        for source 004's criteria, which need a score above 0 as the report's code does
        (``_kernels_criteria.accepts_score``)."""
        shape = np.shape(score)
        out = np.empty(int(np.prod(shape)), dtype=np.bool_)
        acceptance_loop(self.kernel_id)(_flat(score, shape), out)
        return out.reshape(shape)

    def weighted_improvement(self, node_weight, total_weight, gain):
        """The improvement ``min_impurity_decrease`` and best-first growth compare:
        ``w_t / w * G`` (scikit-learn's; :class:`FriedmanMSE`'s is ``G / w``, the same
        number; ``_kernels_criteria.weighted_improvement``)."""
        shape = np.broadcast_shapes(np.shape(node_weight), np.shape(gain))
        out = np.empty(int(np.prod(shape)))
        improvement_loop(self.kernel_id)(
            _flat(node_weight, shape), float(total_weight), _flat(gain, shape), out
        )
        return out.reshape(shape)[()]


class ClassificationCriterion(Criterion):
    """Base class: statistics are weighted class counts along axis 0."""

    @staticmethod
    def row_statistics(y_encoded, sample_weight, n_classes):
        """Per-row statistics: the row's weight in the row of its class.

        Parameters
        ----------
        y_encoded : ndarray of shape (n_samples,), int
            Class indices in ``range(n_classes)``.
        sample_weight : ndarray of shape (n_samples,)
        n_classes : int

        Returns
        -------
        ndarray of shape (n_classes, n_samples)
        """
        stats = np.zeros((n_classes, y_encoded.shape[0]))
        stats[y_encoded, np.arange(y_encoded.shape[0])] = sample_weight
        return stats

    @staticmethod
    def weight(stats):
        """Total weight of the rows summarised by ``stats``."""
        return stats.sum(axis=0)

    @staticmethod
    def value(stats):
        """Class probabilities, shape ``stats.shape[1:] + (C,)``."""
        shares = _safe_divide(stats, stats.sum(axis=0))
        return shares.T if shares.ndim <= 2 else np.moveaxis(shares, 0, -1)


class Gini(ClassificationCriterion):
    r"""Gini impurity :math:`1 - \sum_k p_k^2`.

    Proxy :math:`\sum_k L_k^2 / w_L + \sum_k R_k^2 / w_R` (scikit-learn's), so
    :math:`G = (\mathrm{proxy} - \sum_k P_k^2 / w) / w`.
    """

    name = "gini"


class Entropy(ClassificationCriterion):
    r"""Shannon entropy in bits, :math:`-\sum_k p_k \log_2 p_k` (as scikit-learn).

    Proxy :math:`-(w_L H(S_L) + w_R H(S_R))`.
    """

    name = "entropy"


class Misclassification(ClassificationCriterion):
    r"""Misclassification rate :math:`1 - \max_k p_k`.

    Source 004 writes it as the minimum class share, which is the same for two
    classes; ``1 - max`` is its generalisation to any number of classes. (The
    report's code computes another index, the smallest class *count* present,
    under which a pure child scores its size: :class:`ReportMisclassification`.)
    Proxy :math:`\max_k L_k + \max_k R_k`, so
    :math:`G = (\mathrm{proxy} - \max_k P_k) / w`.

    Zero-gain splits are refused (``refuses_zero_gain``): a split that
    changes no majority has gain exactly 0 under this criterion, which is
    common, and says nothing about the split; growing on such splits (as
    scikit-learn does for every criterion) builds chains hundreds of levels
    deep that each peel off a few rows. Refusing them is the report's rule
    (its search keeps a split only when it beats the best score so far,
    starting from 0), so an exhaustive misclassification tree stops where no
    split changes a majority, with impure leaves (source 004, Table 4.1:
    train error 0.017). Gini, entropy, squared error and the chi-squares keep
    zero-gain splits, as scikit-learn: under them a zero gain needs both
    children to repeat the parent's class shares exactly, which is rare and
    can open an XOR-like pattern, and their exhaustive trees reach purity.
    """

    name = "misclassification"
    refuses_zero_gain = True


class ChiSquare(ClassificationCriterion):
    r"""Pearson's chi-square statistic of the children's class table.

    .. math::

        X^2 = \sum_{j \in \{L, R\}} \sum_k \frac{(O_{jk} - E_{jk})^2}{E_{jk}},
        \qquad E_{jk} = w_j \, P_k / w

    Source 004 (section 4.1) defines its chi-square metric with a square root
    per class; we use Pearson's statistic instead, the standard definition and
    the one whose null distribution source 001 relies on. Classes absent from
    the parent are skipped (their expected count is 0). The proxy is the
    statistic itself. The *impurity* stored for a node, and the gain that
    ``min_impurity_decrease`` is compared with, are Gini's, so the stopping
    rules keep their usual meaning under this criterion.
    """

    name = "chi2"


class RegressionCriterion(Criterion):
    """Base class: statistics whose first row is the rows' weight and second the weighted sum
    of y; a node's value is the weighted mean of y (of the centred y where the criterion
    ``centres_targets``: the builder adds the offset back)."""

    is_classification = False

    @staticmethod
    def weight(stats):
        """Total weight of the rows summarised by ``stats``."""
        return stats[0]

    @staticmethod
    def value(stats):
        """Weighted mean of y, shape ``stats.shape[1:] + (1,)``."""
        return _safe_divide(stats[1], stats[0])[..., None]


class SquaredError(RegressionCriterion):
    r"""Weighted variance :math:`\sum w (y - \bar y)^2 / \sum w`.

    Statistics are ``(sum w, sum w*y, sum w*y^2)``. Proxy
    :math:`S_L^2/w_L + S_R^2/w_R` (``S`` the weighted sums of y, as
    scikit-learn), so :math:`G = (\mathrm{proxy} - S^2/w) / w`; this avoids
    subtracting two large sums of squares. Callers centre ``y`` before
    building the statistics, which leaves every gain and variance unchanged
    and keeps the cumulative sums well conditioned.
    """

    name = "squared_error"

    @staticmethod
    def row_statistics(y, sample_weight, n_classes=None):
        """Per-row statistics ``(w, w*y, w*y^2)``, shape (3, n_samples)."""
        return np.vstack([sample_weight, sample_weight * y, sample_weight * y * y])


class ReportChiSquare(ClassificationCriterion):
    r"""The chi-square metric of source 004 as its code computes it (``chi_square``).

    .. math::

        \mathcal{X}_C(S) = \sum_{j \in \{F, T\}} \sum_{k:\, c_{jk} > 0}
            \sqrt{\frac{(c_{jk} - e_{jk})^2}{e_{jk}}}, \qquad e_{jk} = w_j\, P_k / w

    over the child failing the test (F, the right one) and the child passing it
    (T, the left one), and within a child over the classes *present in it*:
    ``c_jk`` its count of class ``k``, ``e_jk`` the count the parent's class
    shares ``P_k / w`` would give it. Section 4.1 of the report prints another
    formula, of class *shares*, :math:`\sum_j \sum_k \sqrt{(p_k^{(S_j)} -
    p_k^{(S)})^2 / p_k^{(S)}}` over every class: the code's terms are the
    text's times :math:`\sqrt{w_j}`, so larger children weigh more, and a
    class absent from a child adds nothing. The code is what produced Table
    4.1: on the report's data and split its chi-square tree is the printed one
    (depth 27, 1,119 nodes), the text's formula grows a tree of depth 311.

    The sums follow the code's order of operations (each child's terms added
    as ``np.sum`` adds a short list, then the two children), so candidates tie
    or differ as they do there. The proxy is the metric itself; a split needs a
    metric above 0 (:meth:`accepts_score`, the code's search starts its best
    score at 0); the impurity stored and the gain ``min_impurity_decrease`` is
    compared with are Gini's, as for ``"chi2"``.
    """

    name = "report_chi2"


class ReportMisclassification(ClassificationCriterion):
    r"""Source 004's misclassification gain as its code computes it (``measure_gain`` with
    ``minimum``).

    The report's index of a set is the smallest *absolute count* among the
    classes present in it (``np.min(np.unique(labels, return_counts=True)[1])``),
    not a share of all classes: a pure set scores its size, and an empty set
    0. The gain is the report's, :math:`G = I(S) - \sum_j (w_j / w)\, I(S_j)`,
    so a split is worth taking when it peels off a small mixed group, and a
    split into pure children scores below zero.

    The rules follow the code too:

    * the gain is computed in the code's order of operations, ``I(S) - (0 +
      (w_R / w) I(S_R) + (w_L / w) I(S_L))`` with the child failing the test
      (the right one) first, so that candidates of equal gain tie, or differ in
      the last bit, as they do there (with the first best kept, this decides
      which of many equal splits a node takes);
    * a split needs a gain above 0 (:meth:`accepts_score`: the code's search
      starts its best score at 0), not a gain above rounding;
    * a node is pure, and a leaf, when one class is present (:meth:`rule_impurity`
      is the entropy: the code stops a node at entropy 0). Under this index a
      pure node scores its size, and any split of it into two pure halves has
      a positive gain, so the node rules cannot read the index itself.

    The node impurity stored is the index (a count). The proxy is the gain.
    """

    name = "report_misclassification"


CRITERIA_CLF = {
    "gini": Gini,
    "entropy": Entropy,
    "misclassification": Misclassification,
    "chi2": ChiSquare,
}


class FriedmanMSE(SquaredError):
    r"""Squared error with Friedman's improvement score (Friedman 2001, eq. 35; scikit-learn's
    ``"friedman_mse"``).

    The node impurity and values are the squared error's; a split is scored by

    .. math::

        G = \frac{(w_R S_L - w_L S_R)^2}{w_L\, w_R\, w},

    ``w`` times the squared error's gain, so it chooses the same splits.
    ``min_impurity_decrease`` and best-first growth compare :math:`G / W` (``W``
    the training rows' weight), the squared error's weighted decrease, as
    scikit-learn 1.9, which makes ``"friedman_mse"`` the squared error
    (:meth:`weighted_improvement`; scikit-learn before 1.9 compared ``G``).
    Proxy: :math:`(w_R S_L - w_L S_R)^2 / (w_L w_R)`, the same for any
    centring of y. Feature importances, as
    scikit-learn's, count impurity decreases, not this score.
    """

    name = "friedman_mse"


class Poisson(RegressionCriterion):
    r"""Half Poisson deviance, scikit-learn's ``"poisson"`` (for counts and frequencies, y >= 0).

    A node's impurity is :math:`\frac{1}{w}\sum w\, y \log(y / \bar y)`, the
    half deviance without its terms :math:`\bar y - y`, which sum to zero
    (scikit-learn's ``poisson_loss``). Statistics are ``(sum w, sum w*y,
    sum w*y*log y)`` of the raw y (``0 log 0 = 0``): additive, so the one
    split search scans them. Proxy :math:`S_L \log(S_L/w_L) + S_R
    \log(S_R/w_R)` (``S`` the weighted sums of y), :math:`-\infty` when a
    child's sum is at most ten machine epsilons, times the parent's sum when it
    exceeds 1 (a Poisson mean must be positive: scikit-learn refuses those
    splits, with the ``EPSILON = 10 * eps`` of its ``_criterion.pyx``; scaled,
    the bound absorbs the rounding of ``S_R = S - S_L`` in any order of the sums:
    ``_kernels_numbers.poisson_child_positive``); so :math:`G = (\mathrm{proxy} - S
    \log(S/w)) / w`. A node whose targets are all 0 has impurity 0 here
    (scikit-learn returns infinity, a case its growth never reaches). Leaf
    values are the rows' mean, as the squared error's.
    """

    name = "poisson"
    # Its log needs y as given: the regressors do not centre it (``_settings.regression_offset``).
    centres_targets = False

    @staticmethod
    def check_targets(y, sample_weight=None):
        """Refuse targets the Poisson deviance cannot fit: a negative one, or a (weighted) sum
        that is not positive, in scikit-learn's words (its tests match them) and the lab's.

        Raises
        ------
        ValueError
        """
        if np.any(y < 0):
            # scikit-learn's sentences first (its tests match them), then the lab's advice.
            raise ValueError(
                "Some value(s) of y are negative which is not allowed for Poisson regression: "
                "criterion='poisson' models counts or rates. Use criterion='squared_error' for "
                "this target."
            )
        if not np.sum(y if sample_weight is None else sample_weight * y) > 0:
            raise ValueError(
                "Sum of y is not strictly positive which is necessary for Poisson regression: "
                "the sum of y is not positive (every target is 0), and the Poisson deviance of "
                "criterion='poisson' needs it. Use criterion='squared_error' for this target."
            )

    @staticmethod
    def row_statistics(y, sample_weight, n_classes=None):
        """Per-row statistics ``(w, w*y, w*y*log y)``, shape (3, n_samples).

        Raises
        ------
        ValueError
            When a target is negative, or their weighted sum is not positive
            (the Poisson deviance needs both, as scikit-learn).
        """
        y = np.asarray(y, dtype=np.float64)
        Poisson.check_targets(y, sample_weight)
        ylogy = np.where(y > 0, y * np.log(np.where(y > 0, y, 1.0)), 0.0)
        return np.vstack([sample_weight, sample_weight * y, sample_weight * ylogy])


def check_targets_first(criterion, y):
    """Refuse a Poisson target before X and y are validated together, as scikit-learn's
    regressor does (its ``test_error`` fits one row of X with three targets and expects the
    targets' error): ``Poisson.check_targets`` on ``y`` as given, unweighted (with weights of
    0 and above, a sum that is not positive is not positive weighted either).

    A ``y`` that is not an array of finite numbers is left to the validation, which says
    what is wrong with it.
    """
    if criterion != "poisson":
        return
    try:
        values = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        return
    if values.size and np.isfinite(values).all():
        Poisson.check_targets(values)


class AbsoluteError(RegressionCriterion):
    r"""Absolute error about the weighted median, scikit-learn's ``"absolute_error"``.

    A node's impurity is :math:`\frac{1}{w}\sum w_i |y_i - m|` and its value
    the weighted median ``m`` of its targets (scikit-learn's rule: the
    smallest target whose cumulative weight exceeds half the node's, or the
    midpoint of two targets when the cumulative weight reaches exactly half
    between them). Splits are scored by the impurity decrease.

    A median is not a function of sums, so this criterion has no sufficient
    statistics: the compiled search computes every cut's errors from the
    node's rows (``_kernels_absolute_error``, O(n log n) per feature, as
    scikit-learn >= 1.8), and a grown tree's values and impurities come from
    each node's rows (:meth:`needs_rows`). The statistics below, the squared
    error's ``(w, w*y, w*y^2)`` of y as given, serve for weights only, and
    the methods that would score from statistics refuse: the split tables of
    selection by p-value and of the step-by-step grower cannot use this
    criterion, and the estimators accept it for ordered features only.
    """

    name = "absolute_error"
    centres_targets = False  # medians are read from y as given
    needs_rows = True
    row_statistics = staticmethod(SquaredError.row_statistics)

    def _no_sums(self, *args):
        raise ValueError(
            "criterion='absolute_error' has no sufficient statistics: a median is computed from "
            "a node's rows, which the split tables (selection by p-value, the step-by-step "
            "grower) do not keep. Grow with DecisionTreeRegressor or a forest, or use "
            "criterion='squared_error'."
        )

    impurity = rule_impurity = proxy = score_from_proxy = score = gain = value = _no_sums


CRITERIA_REG = {"squared_error": SquaredError, "friedman_mse": FriedmanMSE, "poisson": Poisson}
# Criteria without sufficient statistics (``needs_rows``): the regressors and their forests
# take them; the pages and tables that score candidates from sums (CRITERIA_REG) do not.
ROW_CRITERIA = {"absolute_error": AbsoluteError}
# Every regression criterion an estimator accepts.
REGRESSOR_CRITERIA = {**CRITERIA_REG, **ROW_CRITERIA}
# Source 004's own metrics, offered beside the standard ones (by the classifier,
# the grower and the forests), outside CRITERIA_CLF, whose entries are the
# impurity gains and Pearson's statistic.
REPORT_CRITERIA = {
    "report_chi2": ReportChiSquare,
    "report_misclassification": ReportMisclassification,
}
# Every classification criterion an estimator accepts.
# scikit-learn's other names, accepted by the estimators (not offered again on the pages).
CRITERION_ALIASES = {"log_loss": Entropy}  # log loss is the entropy impurity
CLASSIFIER_CRITERIA = {**CRITERIA_CLF, **REPORT_CRITERIA, **CRITERION_ALIASES}
