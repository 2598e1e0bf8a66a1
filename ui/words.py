"""Counts in words: "1 feature", "2 features", "1,000 rows"."""

__all__ = ["counted"]


def counted(count, noun, plural=None):
    """``count`` with ``noun``, singular for exactly one (``plural``: ``noun + "s"`` by default).

    >>> counted(1, "feature"), counted(2, "feature"), counted(61069, "row")
    ('1 feature', '2 features', '61,069 rows')
    """
    word = noun if count == 1 else (plural or noun + "s")
    return f"{count:,} {word}"
