"""The staircase page's cached computations: the generated example, its tree, the logistic line, the curves.

Keyed as ``ui.cached`` explains: settings hashed, arrays passed unhashed (``_``-prefixed).
"""

from sklearn.linear_model import LogisticRegression

from datasets import generate, preprocess
from trees import complexity_curve
from trees.tasks import make_tree
from trees.tuning import pruning_alphas
from ui import cache_budget

__all__ = ["complexity_curves", "logistic_fit", "staircase_example", "staircase_tree"]


@cache_budget.data(show_spinner=False, max_entries=64)
def staircase_example(name, params):
    """A generator's data as arrays (``params`` a tuple of pairs), preprocessed."""
    data, _ = preprocess(generate(name, **dict(params)))
    return data.arrays()


@cache_budget.resource(show_spinner=False, max_entries=64)
def staircase_tree(task, max_depth, _X, _y, data_key):
    """A tree of ``max_depth`` on a generated example (``data_key`` names the example's settings)."""
    return make_tree(task, {"max_depth": max_depth}).fit(_X, _y).tree_


@cache_budget.resource(show_spinner=False, max_entries=32)
def logistic_fit(_X, _y, data_key):
    """The logistic-regression line a staircase is compared with."""
    return LogisticRegression().fit(_X, _y)


@cache_budget.data(
    show_spinner="Cross-validating trees of every depth, leaf size and pruning strength...",
    max_entries=16,
)
def complexity_curves(signature, _X, _y):
    """Depth, leaf-size and pruning curves; ``signature`` = (data key, task, folds, repeats,
    error name)."""
    _, task, folds, repeats, error_name = signature
    options = {"n_splits": folds, "n_repeats": repeats, "error_name": error_name}
    depths = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, None]
    depth_curve = complexity_curve(_X, _y, task, "max_depth", depths, **options)
    leaves = [
        v for v in sorted({1, 2, 5, 10, 20, 50, 100, max(1, len(_y) // 20)}) if v <= len(_y) // 4
    ] or [1]
    leaf_curve = complexity_curve(_X, _y, task, "min_samples_leaf", leaves, **options)
    alphas = pruning_alphas(_X, _y, task)
    alpha_curve = complexity_curve(_X, _y, task, "ccp_alpha", alphas, **options)
    return depth_curve, leaf_curve, alpha_curve
