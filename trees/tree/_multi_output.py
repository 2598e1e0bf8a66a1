"""Multi-output y: one tree for several targets, as scikit-learn's trees and forests grow it.

A ``y`` of shape ``(n_samples, n_outputs)`` with ``n_outputs > 1`` grows one tree whose nodes
split on the mean of the outputs' impurity decreases (``_criterion_multi_output``) and whose
leaves hold every output's value. What the estimators answer, as scikit-learn's:
``n_outputs_``; for a classifier ``classes_`` a list of each output's classes, ``n_classes_``
their counts, ``predict`` an array ``(n_samples, n_outputs)`` of labels and ``predict_proba`` a
list of ``n_outputs`` arrays ``(n_samples, n_classes[j])``; for a regressor ``predict`` an array
``(n_samples, n_outputs)``. A ``y`` of one column is a single target (``(n_samples,)`` answers).

How the lab's ``Tree`` stores the values (a choice: scikit-learn's ``tree_.value`` is 3-D,
``(node_count, n_outputs, max_n_classes)``): ``Tree.value`` stays 2-D, one row per node,
``n_outputs * max_n_classes`` wide, output after output (each padded to the most classes), and
``Tree.n_outputs`` says how many. A single-output tree's ``value`` is therefore exactly what it
was (``(node_count, n_classes)``, or ``(node_count, 1)``): single-output fits, their
fingerprints, the protocol's digests, saved trees and every page read the same arrays, while
``Tree.output_values()`` gives scikit-learn's 3-D shape of any tree.

A multi-output node is a leaf when its mean impurity is at most ``EPSILON`` (scikit-learn's
rule): the single-output regressor's extra rules, a constant target and scikit-learn's order of
the raw sums (``GrowingTree._sklearn_pure_rule``), read one target and do not apply.

The settings a multi-output tree refuses, in words: criteria the lab has no multi-output
form of (misclassification, the chi-squares, source 004's metrics, the absolute
error: a median per output needs each node's rows sorted per target) and selection by
p-value (source 001's permutation tests are of one target).
"""

import warnings

import numpy as np
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.class_weight import compute_sample_weight

from ._criterion_multi_output import MULTI_OUTPUT_CRITERIA

__all__ = [
    "class_labels",
    "encode_outputs",
    "is_multi_output",
    "multi_output_criterion",
    "output_offsets",
    "proba_by_output",
    "row_weights_of_classes",
    "single_target",
    "takes_multi_output",
]


def is_multi_output(y):
    """Whether ``y`` holds several targets (2-D with more than one column)."""
    return np.ndim(y) == 2 and np.shape(y)[1] > 1


def single_target(y, warn=False):
    """``y`` as given, but a column of one target, ``(n_samples, 1)``, as ``(n_samples,)``.

    ``warn``: say so with scikit-learn's ``DataConversionWarning`` (its estimators that take one
    target warn; a forest always does, as scikit-learn's forests do).
    """
    y = np.asarray(y)
    if y.ndim != 2 or y.shape[1] != 1:
        return y
    if warn:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected. Please change the "
            "shape of y to (n_samples,), for example using ravel(): one column is read as one "
            "target.",
            DataConversionWarning,
            stacklevel=3,
        )
    return y[:, 0]


def encode_outputs(y):
    """Each output's sorted classes and ``y`` as class indices per output.

    Returns
    -------
    classes : list of ndarray
    encoded : ndarray of shape (n_samples, n_outputs), int
    """
    y = np.asarray(y)
    classes, encoded = [], np.empty(y.shape, dtype=np.intp)
    for j in range(y.shape[1]):
        labels, encoded[:, j] = np.unique(y[:, j], return_inverse=True)
        classes.append(labels)
    return classes, encoded


def takes_multi_output(criterion, selection="gain"):
    """Whether a tree of ``criterion`` and ``selection`` grows on a ``y`` of several columns: a
    criterion with a multi-output form (``MULTI_OUTPUT_CRITERIA``) selecting by gain."""
    return isinstance(criterion, str) and criterion in MULTI_OUTPUT_CRITERIA and selection == "gain"


def multi_output_criterion(params, n_classes=None, n_outputs=None):
    """The multi-output criterion of the settings ``params`` (``TreeParams``): for a classifier
    of the outputs' class counts ``n_classes``, for a regressor of ``n_outputs`` targets.

    Raises
    ------
    ValueError
        For a criterion or a selection that has no multi-output form (module docstring).
    """
    criterion = params.criterion
    if takes_multi_output(criterion, params.selection):
        chosen = MULTI_OUTPUT_CRITERIA[criterion]
        return chosen(n_classes) if n_classes is not None else chosen(n_outputs)
    if criterion not in MULTI_OUTPUT_CRITERIA:
        classifier = n_classes is not None
        offered = (
            "'gini', 'entropy' or 'log_loss'"
            if classifier
            else "'squared_error', 'friedman_mse' or 'poisson'"
        )
        raise ValueError(
            f"criterion={criterion!r} scores one target, and y has several columns (a "
            f"multi-output y). Grow it with criterion {offered}, or fit one tree per column."
        )
    raise ValueError(
        f"selection={params.selection!r} tests one target (source 001's permutation "
        "p-values), and y has several columns. Use selection='gain' for a multi-output y, "
        "or fit one tree per column."
    )


def output_offsets(y, sample_weight, variance_sums, criterion):
    """What a multi-output regression tree subtracts from each target before summing: its
    weighted mean over the rows of positive weight (``variance_sums="centred"``), or 0
    (``"raw"``, or a criterion that needs y as given: Poisson's), as
    ``_settings.regression_offset`` for one target."""
    if variance_sums == "raw" or not criterion.centres_targets:
        return np.zeros(y.shape[1])
    present = sample_weight > 0
    return np.average(y[present], axis=0, weights=sample_weight[present])


def row_weights_of_classes(class_weight, y):
    """Each row's class weight for a multi-output ``y``: the product over the outputs of its
    class's weight (scikit-learn's ``compute_sample_weight``; ``class_weight`` ``"balanced"``
    or a list of one dict per output)."""
    return compute_sample_weight(class_weight, y)


def proba_by_output(flat, n_classes):
    """A multi-output tree's class shares ``(n_samples, n_outputs * max_n_classes)`` as
    scikit-learn's ``predict_proba`` gives them: one array ``(n_samples, n_classes[j])`` per
    output."""
    width = flat.shape[1] // len(n_classes)
    return [flat[:, j * width : j * width + int(c)] for j, c in enumerate(n_classes)]


def class_labels(flat, classes):
    """The most probable class of each output (the first on ties), ``(n_samples,
    n_outputs)``, from the shares laid out as :func:`proba_by_output` reads them."""
    shares = proba_by_output(flat, [len(c) for c in classes])
    columns = [labels[np.argmax(p, axis=1)] for labels, p in zip(classes, shares, strict=True)]
    return np.column_stack(columns)
