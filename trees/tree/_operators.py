"""The threshold tests of source 000 (sections 2.2, 3.3): the one place that names them.

* ``"<="`` sends a row left when ``x[feature] <= threshold`` (scikit-learn);
* ``"<"`` sends it left when ``x[feature] < threshold`` (R's ``tree``);
* ``"average"`` (prediction only) is the mean of the two predictions,
  probabilities or values, never votes;
* ``"half"`` (forests only): half of the trees test with ``<``, the others
  with ``<=``, the paper's remedy at no extra cost.
"""

__all__ = [
    "FOREST_CONDITIONINGS",
    "OPERATORS",
    "ROUTING_OPERATORS",
    "check_operator",
]

ROUTING_OPERATORS = ("<=", "<")
OPERATORS = (*ROUTING_OPERATORS, "average")
FOREST_CONDITIONINGS = (*OPERATORS, "half")


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
