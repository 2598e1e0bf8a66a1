"""What the cultivated-forest page's panels share: the rows, the settings and the fitted tree.

The script builds a :class:`CultivatedContext` once (``cultivated_context``) and passes it to
every panel, so no panel reads the script's variables.
"""

from dataclasses import dataclass
from typing import Any

import numpy as np

from .settings import CultivatedSettings, PageRows

__all__ = ["CultivatedContext", "count", "cultivated_context", "module_counts"]


def count(n, one, many=None):
    """'1 leaf', '3 leaves', '0 option modules'."""
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def module_counts(structure):
    """How many modules of each kind (robust, option, split) the tree's structure holds."""
    return {
        kind: sum(m["kind"] == kind for m in structure) for kind in ("robust", "option", "split")
    }


@dataclass(frozen=True)
class CultivatedContext:
    """The rows, the settings, the cultivated tree, and its predictions on every row.

    ``y01`` are the classes as 0 and 1 (``class_names`` their names); ``all_proba`` and
    ``all_spread`` the tree's probabilities and spreads on the page's rows.
    """

    rows: PageRows
    settings: CultivatedSettings
    model: Any
    structure: list
    y01: np.ndarray
    class_names: list
    all_proba: np.ndarray
    all_spread: np.ndarray

    @property
    def least_reliable(self):
        """The row with the largest spread: the least reliable prediction."""
        return int(np.argmax(self.all_spread))

    @property
    def smallest(self):
        """The rows of the smallest class: cross-validation cannot have more folds."""
        return int(np.bincount(self.y01).min())


def cultivated_context(rows, settings, model):
    """The context of a fitted cultivated tree: its structure, classes and predictions on ``rows``."""
    classes, y01 = np.unique(rows.y, return_inverse=True)
    all_proba, all_spread = model.predict_with_reliability(rows.X)
    return CultivatedContext(
        rows=rows,
        settings=settings,
        model=model,
        structure=model.structure(),
        y01=y01,
        class_names=[str(c) for c in classes],
        all_proba=all_proba,
        all_spread=all_spread,
    )
