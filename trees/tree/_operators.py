"""The threshold tests of source 000 (sections 2.2, 3.3): the one place that names them.

The test is called ``conditioning`` on the estimators and forests and ``op``
on :class:`~trees.tree.Tree`; the compiled kernels receive it as an integer
code (:data:`OPERATOR_CODES`).

* ``"<="`` sends a row left when ``x[feature] <= threshold`` (scikit-learn);
* ``"<"`` sends it left when ``x[feature] < threshold`` (R's ``tree``);
* ``"average"`` (prediction only) is the mean of the two predictions,
  probabilities or values, never votes;
* ``"half"`` (forests only): half of the trees test with ``<``, the others
  with ``<=``, the paper's remedy at no extra cost.

A tree also records the precision in which it compares (``input_dtype``):

* ``"float64"``: rows are compared as given;
* ``"float32"``: rows are rounded to float32 first and then compared with the
  float64 threshold, as scikit-learn does (its trees cast X to float32). The
  choice is itself a source of the conditioning bias: a midpoint that lands
  on a decimal observed value in float64 (say 2.35 between 2.3 and 2.4) is
  generally not one after rounding to float32, and the reverse.
"""

import numpy as np

__all__ = [
    "FOREST_CONDITIONINGS",
    "INPUT_DTYPES",
    "LESS",
    "OPERATORS",
    "OPERATOR_CODES",
    "BOTH",
    "ROUTING_OPERATORS",
    "cast_input",
    "check_input_dtype",
    "check_operator",
]

ROUTING_OPERATORS = ("<=", "<")
OPERATORS = (*ROUTING_OPERATORS, "average")
FOREST_CONDITIONINGS = (*OPERATORS, "half")
# Kernel codes of the tests (``_kernels_traversal``): "average" walks both at once.
OPERATOR_CODES = {"<=": 0, "<": 1, "average": 2}
# The codes the compiled walks compare against (numba reads module constants, not dicts).
LESS = OPERATOR_CODES["<"]
BOTH = OPERATOR_CODES["average"]
# The precision a tree compares in, by name (module docstring).
INPUT_DTYPES = {"float64": np.float64, "float32": np.float32}


def check_operator(op, allowed=OPERATORS):
    """Return ``op`` when it is one of ``allowed``.

    Raises
    ------
    ValueError
        With the accepted names, when ``op`` is not one of them.
    """
    if op not in allowed:
        hint = " ('average' predicts, but does not route rows)" if op == "average" else ""
        raise ValueError(f"op must be one of {allowed}, got {op!r}{hint}.")
    return op


def check_input_dtype(value, name="threshold_dtype"):
    """Return ``value`` when it is a key of :data:`INPUT_DTYPES` (``name``: the parameter, for the message).

    Raises
    ------
    ValueError
        With the accepted names, when it is not.
    """
    if value not in INPUT_DTYPES:
        raise ValueError(f"{name} must be one of {tuple(INPUT_DTYPES)}, got {value!r}.")
    return value


def cast_input(X, input_dtype="float64"):
    """``X`` as float64 values rounded to the precision ``input_dtype``.

    With ``"float32"`` every value is rounded to the nearest float32 (as
    scikit-learn's trees do) and returned as float64, so that comparisons
    with float64 thresholds are those of scikit-learn. Values beyond
    float32's range become infinite (they route as the largest values would).

    Parameters
    ----------
    X : ndarray, float64
    input_dtype : {"float64", "float32"}

    Returns
    -------
    ndarray, float64
        ``X`` itself for ``"float64"``.
    """
    if input_dtype == "float64":
        return X
    with np.errstate(over="ignore"):
        return X.astype(INPUT_DTYPES[input_dtype]).astype(np.float64)
