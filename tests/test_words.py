"""Counts in words say "1 feature", never "1 features"."""

from ui.words import counted


def test_one_is_singular_and_every_other_count_plural():
    assert counted(1, "feature") == "1 feature"
    assert counted(0, "column") == "0 columns"
    assert counted(61069, "row") == "61,069 rows"
    assert counted(2, "class", "classes") == "2 classes"
