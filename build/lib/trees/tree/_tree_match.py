"""Does a loaded tree fit the data it is to be used on?

A tree saved on one dataset and loaded on another can be perfectly valid
(:func:`trees.tree._tree_json.validate_tree_document` passes) and still be
meaningless here: grown on 5 features and applied to 7, on a regression
target and applied to classes, on ``colour`` kept as categories and applied
where ``colour`` is one-hot encoded. :func:`tree_data_problems` lists every
such mismatch in words; :func:`check_tree_for_data` refuses with them.
"""

import json

import numpy as np

__all__ = ["check_tree_for_data", "tree_data_problems"]

_SHOWN = 3


def _quote(name):
    return json.dumps(str(name), ensure_ascii=False)


def _listed(names):
    names = [_quote(n) for n in names]
    shown = ", ".join(names[:_SHOWN])
    return shown + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")


def _task_problem(tree, task):
    if task is None:
        return []
    tree_task = "classification" if tree.is_classifier else "regression"
    if tree_task == task:
        return []
    return [
        f"The tree was grown for {tree_task}, but the current dataset is a {task} task: "
        "load a tree saved on this dataset."
    ]


def _feature_problems(tree, feature_names):
    n = len(feature_names)
    if tree.n_features != n:
        return [
            f"The tree was grown on {tree.n_features} feature(s); the current dataset has {n} "
            "after preprocessing. Load a tree saved on this dataset with the same preprocessing "
            "settings (one-hot encoding changes the number of features)."
        ]
    if tree.feature_names is None:
        return []
    differ = [
        j for j, (a, b) in enumerate(zip(tree.feature_names, feature_names, strict=True)) if a != b
    ]
    if not differ:
        return []
    shown = "; ".join(
        f"feature {j} is {_quote(tree.feature_names[j])} in the tree but "
        f"{_quote(feature_names[j])} here"
        for j in differ[:_SHOWN]
    )
    more = f" (and {len(differ) - _SHOWN} more)" if len(differ) > _SHOWN else ""
    return [f"The features differ: {shown}{more}. Load a tree saved on this dataset."]


def _class_problems(tree, class_names):
    if not tree.is_classifier or class_names is None:
        return []
    classes = [str(c) for c in class_names]
    k = tree.value.shape[1]
    if k != len(classes):
        return [f"The tree predicts {k} class(es); the current dataset has {len(classes)}."]
    if tree.class_names is not None and list(tree.class_names) != classes:
        return [
            f"The tree's classes are {_listed(tree.class_names)}; the current dataset's are "
            f"{_listed(classes)}."
        ]
    return []


def _categorical_mask(categorical, n):
    if categorical is None:
        return np.zeros(n, dtype=bool)
    spec = np.asarray(categorical)
    if spec.dtype == bool:
        return spec
    mask = np.zeros(n, dtype=bool)
    mask[spec.astype(np.intp)] = True
    return mask


def _split_kind_problems(tree, feature_names, mask):
    """Category splits on numeric features and threshold splits on categorical ones."""
    problems = []
    internal = np.flatnonzero(tree.feature >= 0)
    by_set = [i for i in internal if tree.categories[i] is not None and not mask[tree.feature[i]]]
    by_threshold = [i for i in internal if tree.categories[i] is None and mask[tree.feature[i]]]
    if by_set:
        names = sorted({feature_names[tree.feature[i]] for i in by_set})
        problems.append(
            f"The tree splits {_listed(names)} by categories (node {by_set[0]}), but here "
            f"{'it is' if len(names) == 1 else 'they are'} numeric: keep categorical columns "
            "as categories in the preprocessing settings."
        )
    if by_threshold:
        names = sorted({feature_names[tree.feature[i]] for i in by_threshold})
        problems.append(
            f"The tree splits {_listed(names)} by a threshold (node {by_threshold[0]}), but here "
            f"{'it is' if len(names) == 1 else 'they are'} kept as categories: switch that off "
            "in the preprocessing settings, or load a tree grown with categories."
        )
    return problems


def _category_problems(tree, feature_names, category_names):
    """Category codes the data does not have, and category names that differ."""
    if not category_names:
        return []
    problems = []
    known = {int(f): [str(v) for v in names] for f, names in category_names.items()}
    for node, codes in enumerate(tree.categories):
        feature = int(tree.feature[node])
        if codes is None or feature not in known or codes[-1] < len(known[feature]):
            continue
        problems.append(
            f"Node {node} sends category code {codes[-1]} of {_quote(feature_names[feature])} "
            f"left, but {_quote(feature_names[feature])} has {len(known[feature])} "
            f"categor{'y' if len(known[feature]) == 1 else 'ies'} here."
        )
        break
    for feature, names in (tree.category_names or {}).items():
        if feature in known and list(names) != known[feature]:
            problems.append(
                f"The categories of {_quote(feature_names[feature])} differ: the tree has "
                f"{_listed(names)}, the current dataset {_listed(known[feature])}."
            )
    return problems


def tree_data_problems(
    tree, feature_names, task=None, class_names=None, categorical=None, category_names=None
):
    """Every way a valid tree does not fit the current data, in words (empty when it fits).

    Parameters
    ----------
    tree : Tree
    feature_names : sequence of str
        The data's features, in column order (after preprocessing).
    task : {"classification", "regression"}, optional
    class_names : sequence, optional
        The data's classes, in the order the models use (sorted labels).
    categorical : boolean mask or sequence of int, optional
        The data's features kept as category codes.
    category_names : dict {feature index: list of str}, optional
        The category of each code of those features.

    Returns
    -------
    list of str
    """
    feature_names = [str(f) for f in feature_names]
    problems = _task_problem(tree, task) + _feature_problems(tree, feature_names)
    if tree.n_features != len(feature_names):
        return problems  # the per-feature checks below need matching features
    problems += _class_problems(tree, class_names)
    mask = _categorical_mask(categorical, len(feature_names))
    problems += _split_kind_problems(tree, feature_names, mask)
    problems += _category_problems(tree, feature_names, category_names)
    return problems


def check_tree_for_data(
    tree, feature_names, task=None, class_names=None, categorical=None, category_names=None
):
    """Refuse a tree that does not fit the current data (see :func:`tree_data_problems`).

    Raises
    ------
    ValueError
        "This tree does not fit the current dataset: " and every problem.
    """
    problems = tree_data_problems(
        tree,
        feature_names,
        task=task,
        class_names=class_names,
        categorical=categorical,
        category_names=category_names,
    )
    if problems:
        raise ValueError("This tree does not fit the current dataset. " + " ".join(problems))
