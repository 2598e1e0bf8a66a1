"""What the Evaluate page's panels share: the settings, the split and the tree shown, in one value.

The script builds an :class:`EvaluateContext` once and passes it to every panel, so no panel
reads the script's variables.
"""

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from trees.tree import missing_features

from .cache import Split

__all__ = ["EvaluateContext", "SplitSettings", "digest"]


def digest(*parts):
    """A short key for session entries that depend on the dataset and settings."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class SplitSettings:
    """The settings box's values: the test split, the decision metric and nominal conditions."""

    test_share: float
    seed: int
    criteria: list
    criterion: str
    nominal: str


@dataclass(frozen=True)
class EvaluateContext:
    """The dataset, the settings, the split and the tree shown with its errors.

    ``X_all``/``y_all`` are all the dataset's rows (Table 4.1 samples its own), ``base``
    the parameters every fit shares (nominal conditions), ``params`` the tree's own.
    """

    data: Any
    data_key: Any
    X_all: np.ndarray
    y_all: np.ndarray
    categorical: list
    settings: SplitSettings
    split: Split
    base: dict
    params: dict
    model: Any
    train_error: float
    test_error: float

    @property
    def task(self):
        return self.data.task

    @property
    def missing_features(self):
        """The features with missing values (kept on the Data page): the drawing routes them."""
        return missing_features(self.X_all)

    @property
    def is_classifier(self):
        return self.data.task == "classification"

    @property
    def error_name(self):
        return "error (1 − accuracy)" if self.is_classifier else "error (1 − R²)"

    @property
    def seed(self):
        return self.settings.seed

    @property
    def feature_names(self):
        return [str(c) for c in self.data.X.columns]

    @property
    def class_names(self):
        return [str(c) for c in self.model.classes_] if self.is_classifier else None
