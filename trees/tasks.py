"""What depends on the task (classification or regression), written once.

The estimator for a task, its folds, its score and error, held-out rows and subsamples.

Public API
----------
make_tree, make_model
    This package's tree or forest for a task, with given settings.
folds, train_test_rows, subsample
    Folds and held-out rows (stratified for classification), and subsamples.
score, error
    The score (AUC or R^2) and the error of predictions.
"""

from .studies._by_task import error, folds, make_model, make_tree, score, subsample, train_test_rows

__all__ = [
    "error",
    "folds",
    "make_model",
    "make_tree",
    "score",
    "subsample",
    "train_test_rows",
]
