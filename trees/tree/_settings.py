"""Resolving the settings of a tree against the data (``_params.TreeParams`` uses these).

One place turns validated settings into what the builder needs: stopping
rules (counts may be fractions of the rows), the random feature subset size,
the mask of categorical features, the sample weights, and the per-row
criterion statistics of a target.
"""

import numbers
from dataclasses import dataclass

import numpy as np

__all__ = [
    "CLASS_WEIGHTS",
    "EPSILON",
    "VARIANCE_SUMS",
    "StoppingRules",
    "categorical_mask",
    "check_sample_weight",
    "check_variance_sums",
    "class_weights",
    "regression_offset",
    "resolve_count",
    "resolve_max_features",
    "target_statistics",
    "check_missing_values",
    "missing_features",
]

# Impurities and gains within this of zero count as zero (rounding of the sums).
EPSILON = np.finfo(np.float64).eps

# How a regression tree sums its targets, by name: whether y is centred on its mean first.
# "centred" (this package's): sums of y - mean(y), and a node whose target is constant is a
# leaf. "raw" (scikit-learn's): sums of y as given, and a node is a leaf when its variance,
# computed in scikit-learn's order of operations, is at most EPSILON; rounding can leave a
# node whose target is constant just above it, and scikit-learn then splits that node at a
# threshold chosen by rounding (source 000's rho counts those thresholds too).
VARIANCE_SUMS = {"centred": True, "raw": False}


@dataclass
class StoppingRules:
    """Stopping rules (source 004, section 3.4.1), resolved to absolute numbers.

    Attributes
    ----------
    max_depth : int or None
    min_samples_split : int
        Fewest rows a node needs to be split.
    min_samples_leaf : int
        Fewest rows each child must keep.
    max_leaf_nodes : int or None
    max_nodes : int or None
        Most nodes (internal and leaves) the tree may have.
    min_impurity_decrease : float
        Least weighted impurity decrease ``w_t / w * G`` a split must bring
        (scikit-learn's definition).
    min_weight_leaf : float
        Least total sample weight each child must keep.
    """

    max_depth: int | None = None
    min_samples_split: int = 2
    min_samples_leaf: int = 1
    max_leaf_nodes: int | None = None
    max_nodes: int | None = None
    min_impurity_decrease: float = 0.0
    min_weight_leaf: float = 0.0

    @property
    def max_splits(self):
        """Most splits the leaf and node limits allow (None: unlimited)."""
        limits = []
        if self.max_leaf_nodes is not None:
            limits.append(self.max_leaf_nodes - 1)
        if self.max_nodes is not None:
            limits.append((self.max_nodes - 1) // 2)
        return min(limits) if limits else None

    def accepts(self, improvement, refuse_zero_gain=False):
        """Which splits, by their weighted impurity decrease, the rules accept (vectorised).

        ``improvement + EPSILON >= min_impurity_decrease`` (scikit-learn's
        rule); with ``refuse_zero_gain`` (criteria for which a zero decrease
        is common and says nothing, see ``_criterion``) the decrease must
        also be positive. The compiled loop applies the same rule
        (``_kernels_growth._evaluate``).
        """
        improvement = np.asarray(improvement, dtype=np.float64)
        ok = improvement + EPSILON >= self.min_impurity_decrease
        if refuse_zero_gain:
            ok &= improvement > EPSILON
        return ok


def check_variance_sums(value):
    """Return ``value`` when it is a key of :data:`VARIANCE_SUMS`."""
    if value not in VARIANCE_SUMS:
        raise ValueError(f"variance_sums must be one of {tuple(VARIANCE_SUMS)}, got {value!r}.")
    return value


def regression_offset(y, sample_weight, variance_sums="centred", criterion=None):
    """What a regression tree subtracts from ``y`` before summing: its weighted mean, or 0 (raw,
    or a ``criterion`` whose statistics need y as given: ``centres_targets`` False, Poisson's).

    Rows of weight 0 do not count.
    """
    centred = VARIANCE_SUMS[check_variance_sums(variance_sums)]
    if not centred or not getattr(criterion, "centres_targets", True):
        return 0.0
    present = sample_weight > 0
    return float(
        np.average(np.asarray(y, dtype=np.float64)[present], weights=sample_weight[present])
    )


def resolve_count(value, n_samples, name, minimum):
    """An int, or a fraction of ``n_samples`` rounded up (scikit-learn's rule)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        if value < minimum:
            raise ValueError(
                f"{name} must be an int >= {minimum} or a float in (0, 1], got {value}."
            )
        return int(value)
    if isinstance(value, numbers.Real) and 0.0 < value <= 1.0:
        return max(minimum, int(np.ceil(value * n_samples)))
    raise ValueError(f"{name} must be an int >= {minimum} or a float in (0, 1], got {value!r}.")


def resolve_max_features(value, n_features):
    """Size of the random feature subset, or None for all features."""
    if value is None:
        return None
    if value == "sqrt":
        return max(1, int(np.sqrt(n_features)))
    if value == "log2":
        return max(1, int(np.log2(n_features)))
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= 1:
        return min(int(value), n_features)
    if isinstance(value, numbers.Real) and 0.0 < value <= 1.0:
        return max(1, int(value * n_features))
    raise ValueError(
        f"max_features must be None, 'sqrt', 'log2', an int >= 1 or a float in (0, 1], "
        f"got {value!r}."
    )


def check_sample_weight(sample_weight, n_samples):
    """Sample weights as a float64 array of ``n_samples`` entries.

    Parameters
    ----------
    sample_weight : None, number or array-like of shape (n_samples,)
        None gives every row weight 1; a number gives every row that weight.
    n_samples : int

    Returns
    -------
    ndarray of shape (n_samples,), float64
        A new array (the caller's is never changed).

    Raises
    ------
    ValueError
        When the weights are not numbers, have another shape, are NaN,
        infinite or negative, or are all zero.
    TypeError
        For a 0-d array (scikit-learn's rule; a plain number weighs every row).
    """
    if sample_weight is None:
        return np.ones(n_samples)
    if isinstance(sample_weight, np.ndarray) and sample_weight.ndim == 0:
        # scikit-learn's rule and sentence: a number weighs every row, a 0-d array is refused.
        raise TypeError(
            "Input should have at least 1 dimension i.e. satisfy `len(x.shape) > 0`, got "
            f"scalar `{sample_weight.astype(np.float64)!r}` instead. Give sample_weight one "
            "entry per row, or a plain number to weigh every row alike."
        )
    try:
        weight = np.array(sample_weight, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(f"sample_weight must hold numbers: {err}.") from err
    if weight.ndim == 0:
        weight = np.full(n_samples, float(weight))
    if weight.shape != (n_samples,):
        raise ValueError(
            f"sample_weight must be a 1-D array with one entry per row ({n_samples}), "
            f"got shape {weight.shape}."
        )
    if not np.isfinite(weight).all():
        raise ValueError("sample_weight has NaN or infinite entries; give finite weights.")
    if np.any(weight < 0):
        raise ValueError("sample_weight must be non-negative.")
    if n_samples and not weight.sum() > 0:
        raise ValueError("sample_weight is all zero: at least one weight must be non-zero.")
    return weight


def categorical_mask(spec, X, feature_names=None):
    """Boolean mask of the categorical features, checked to hold integer codes >= 0.

    Parameters
    ----------
    spec : None, array-like of int or str, or boolean mask
        Indices, feature names, or one boolean per feature.
    X : ndarray of shape (n_samples, n_features)
    feature_names : sequence of str, optional
        Needed when ``spec`` holds names.
    """
    mask = np.zeros(X.shape[1], dtype=bool)
    if spec is None:
        return mask
    spec = np.asarray(spec)
    if spec.dtype == bool:
        if spec.shape != (X.shape[1],):
            raise ValueError("A boolean categorical_features needs one entry per feature.")
        mask = spec.copy()
    else:
        names = [] if feature_names is None else list(feature_names)
        for item in spec.ravel().tolist():
            if isinstance(item, str):
                if item not in names:
                    raise ValueError(
                        f"categorical_features names {item!r}, which is not a feature."
                    )
                mask[names.index(item)] = True
            elif 0 <= int(item) < X.shape[1]:
                mask[int(item)] = True
            else:
                raise ValueError(f"categorical_features index {item} is out of range.")
    codes = X[:, mask]
    if np.isnan(codes).any():
        raise ValueError(
            "A categorical feature has missing values: a category split routes codes, not "
            "missing values. Give them a category of their own, or fill them (the Data page)."
        )
    if codes.size and (np.any(codes < 0) or np.any(codes != np.floor(codes))):
        raise ValueError(
            "Categorical features must hold integer category codes 0, 1, 2, ...; encode them first "
            "(the Data page keeps categories as codes when asked)."
        )
    return mask


def missing_features(X):
    """The features of ``X`` with missing values (NaN), as a tuple of indices."""
    return tuple(np.flatnonzero(np.isnan(np.asarray(X, dtype=np.float64)).any(axis=0)).tolist())


def check_missing_values(X, selection):
    """Refuse missing values (NaN) in ``X`` where the growth cannot route them.

    Selection by gain routes them as scikit-learn does (``_kernels_search``);
    selection by p-value (source 001) ranks each feature's present values
    with split tables that have no side for the missing rows.
    """
    if selection == "p_value" and np.isnan(X).any():
        raise ValueError(
            "X has missing values (NaN), and selection by p-value (source 001) does not route them. "
            "Fill them first (the Data page's fill rules), or use selection='gain', which sends "
            "them to the side that scores best."
        )


CLASS_WEIGHTS = ("balanced",)  # besides None and a dict {class: weight}


def class_weights(class_weight, y, allowed=CLASS_WEIGHTS):
    """Each row's class weight: ``"balanced"`` (``n / (k * n_class)``) or a dict ``{class: w}``.

    scikit-learn's ``compute_sample_weight``; a class the dict leaves out
    weighs 1. ``allowed`` names the strings accepted (a forest adds
    ``"balanced_subsample"``, handled per tree).

    Raises
    ------
    ValueError
        For anything else, or a dict naming a class absent from ``y``.
    """
    if not (isinstance(class_weight, dict) or class_weight in allowed):
        names = " or ".join(repr(name) for name in allowed)
        raise ValueError(
            f"class_weight must be None, {names} or a dict {{class: weight}}, got {class_weight!r}."
        )
    # Here, not above: the compile worker imports no scikit-learn (``lab.kernel_worker``).
    from sklearn.utils.class_weight import compute_sample_weight

    return compute_sample_weight(class_weight, y)


def target_statistics(criterion, y, sample_weight, variance_sums="centred"):
    """Per-row statistics of a target for ``criterion``.

    Regression sums ``y`` minus :func:`regression_offset` (``variance_sums``).

    Returns
    -------
    row_stats : ndarray of shape (n_stats, n_samples)
    offset : float
        Regression: what was subtracted from y, the weighted mean or 0 (the builder adds it
        back to leaf values); 0 for classification.
    classes : ndarray or None
        Classification: the sorted class labels.
    """
    if criterion.is_classification:
        classes, encoded = np.unique(np.asarray(y), return_inverse=True)
        return criterion.row_statistics(encoded, sample_weight, len(classes)), 0.0, classes
    y = np.asarray(y, dtype=np.float64)
    offset = regression_offset(y, sample_weight, variance_sums, criterion)
    return criterion.row_statistics(y - offset, sample_weight), offset, None
