"""Near-tie trees: the greedy trees one gets by taking, at any node, a split almost as good.

Greedy CART commits to the best split at every node. When another feature's
best split scores within a hair of it, the data hardly prefers one over the
other (source 002, section 2: *variable uncertainty*), and each choice grows a
different tree. :func:`near_tie_trees` enumerates these trees: at every node
every feature whose best split scores within ``epsilon`` (relative) of the
node's best is an *option* (the option modules of source 002, section 3,
after Buntine's option trees), and each combination of options gives one
tree. It is a Rashomon set (Breiman, 2001; Semenova, Rudin and Parr, 2022)
of greedy trees: not every tree within epsilon of the best loss, but every
tree that a greedy learner might have returned had the near-ties fallen the
other way.

Choices (ours):

* An option is a feature's best split (the grower's candidates); other
  thresholds of the same feature are split-point uncertainty, which the
  cutpoint views show instead. Ties go to the lower feature index, as in the
  builder, so the first tree is the greedy tree.
* ``epsilon`` is relative: the options at a node with best score ``s`` are the
  features scoring at least ``s (1 - epsilon)``; ``epsilon=0`` keeps exact
  ties only (within 1e-9, relative).
* The enumeration is breadth-first: partial trees wait in a queue and each
  turn adds one node (in level order) to the tree at its head, so the options
  of the top levels of every tree are taken before those of deeper levels.
  When ``max_trees`` would be exceeded, a node takes only as many options as
  fit (best first) and the result says the budget cut the set.
* The stopping rules are the grower's (``next_node`` decides which nodes
  split); a chosen option is applied even if its impurity decrease is a
  hair below ``min_impurity_decrease``.

Measures of the set, on held-out rows: the spread of the trees' scores
(accuracy or R^2); *ambiguity* (Marx, Calmon and Ustun, 2020), the share of
rows on which two trees of the set disagree (classes; values further apart
than ``tolerance`` times the SD of y); *discrepancy*, the largest share of
rows on which one tree disagrees with the greedy tree; and how often each
feature is used, with its impurity-based importance in each tree.
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..tree import CRITERIA_REG, TreeGrower
from ._by_task import error, train_test_rows
from ._paths import node_paths, split_text
from ._progress import report

__all__ = ["NearTieSet", "near_tie_options", "near_tie_trees", "tree_importances"]

_TIE = 1e-9
_REFUSED = {
    "max_features": "random feature subsets make the options a matter of chance",
    "random_state": "the trees are grown without randomness; random_state seeds the held-out split",
    "sample_weight": "rows count once",
}


@dataclass
class NearTieSet:
    """The near-tie trees of a dataset and what they say (see the module docstring).

    Attributes
    ----------
    trees : list of Tree
        The first is the greedy tree.
    table : pandas.DataFrame
        One row per tree: ``tree``, ``score``, ``n_leaves``, ``depth``,
        ``alternatives`` (nodes where it took an option other than the best),
        ``root`` (the root's split in words).
    feature_use : pandas.DataFrame
        One row per feature: ``feature``, ``name``, ``share_of_trees`` (using
        it at least once), ``mean_importance``, ``min_importance``,
        ``max_importance``.
    paths : pandas.DataFrame
        The alternative paths as a hierarchy for an icicle or sunburst:
        ``id``, ``parent``, ``label``, ``n_trees``, ``detail``.
    ambiguity, discrepancy : float
    ambiguous : ndarray of bool
        Evaluation rows on which the trees disagree.
    metric : str
        ``"accuracy"`` or ``"R²"``.
    evaluated_on : str
        ``"held-out rows"`` or ``"training rows"``.
    truncated : bool
        Whether ``max_trees`` cut the set.
    cancelled : bool
    """

    trees: list
    table: pd.DataFrame
    feature_use: pd.DataFrame
    paths: pd.DataFrame
    ambiguity: float
    discrepancy: float
    ambiguous: np.ndarray
    metric: str
    evaluated_on: str
    epsilon: float
    max_trees: int
    truncated: bool
    task: str
    feature_names: list = field(default_factory=list)
    cancelled: bool = False

    @property
    def n_trees(self):
        return len(self.trees)

    @property
    def scores(self):
        return self.table["score"].to_numpy()

    def summary(self):
        """One sentence on the set."""
        cut = f" (the budget of {self.max_trees} cut the set)" if self.truncated else ""
        spread = self.scores
        return (
            f"{self.n_trees} near-tie tree{'s' if self.n_trees != 1 else ''} within "
            f"{self.epsilon:.1%} of the best split at every node{cut}; {self.metric} on "
            f"{self.evaluated_on} from {spread.min():.3f} to {spread.max():.3f}; the trees "
            f"disagree on {self.ambiguity:.1%} of those rows."
        )


def near_tie_options(grower, node, epsilon, cache=None):
    """The options at a node of a grower: each feature's best split within ``epsilon`` of the best.

    Parameters
    ----------
    grower : TreeGrower
    node : int
        A node of the grower's tree.
    epsilon : float
        Relative tolerance (see the module docstring).
    cache : dict, optional
        Options by node rows, shared by growers on the same data.

    Returns
    -------
    list of Candidate
        Best first (ties: the lower feature).
    """
    if epsilon < 0:
        raise ValueError(f"epsilon must be at least 0, got {epsilon}.")
    key = grower.node_rows(node).tobytes() if cache is not None else None
    if key is not None and key in cache:
        return cache[key]
    found = [c for c in grower.candidates(node) if c.score is not None]
    if found:
        best = found[0].score
        floor = best - max(epsilon, 0.0) * abs(best) - _TIE * max(abs(best), 1e-300)
        found = [c for c in found if c.score >= floor]
    if key is not None:
        cache[key] = found
    return found


def _grower_params(tree_params):
    params = dict(tree_params)
    for name, reason in _REFUSED.items():
        if params.pop(name, None) is not None:
            raise ValueError(f"near_tie_trees does not take {name}: {reason}.")
    if params.get("selection", "gain") != "gain":
        raise ValueError(
            "near_tie_trees compares scores (selection='gain'); p-value selection has no near-ties "
            "of score to branch on."
        )
    op = params.pop("conditioning", "<=")
    params.setdefault("growth", "level_order")
    return params, op


def _infer_task(y, criterion):
    if criterion is not None:
        return "regression" if criterion in CRITERIA_REG else "classification"
    y = np.asarray(y)
    if y.dtype.kind == "f" and not np.all(np.equal(np.mod(y, 1), 0)):
        return "regression"
    return "classification"


def _expand(grower, node, option):
    if option.categories is not None:
        return grower.expand(node, option.feature, categories=option.categories)
    return grower.expand(node, option.feature, option.threshold)


def _branch(grower, X, y, params, node, option):
    """A copy of ``grower`` (replayed from its tree) with ``option`` applied at ``node``."""
    path = node_paths(grower.tree)[node]
    copy = TreeGrower.from_tree(X, y, grower.tree, **params)
    twin = {p: n for n, p in node_paths(copy.tree).items()}[path]
    _expand(copy, twin, option)
    return copy


def _enumerate(X, y, params, epsilon, max_trees, progress, should_stop):
    """Grow the near-tie trees breadth-first (see the module docstring).

    Returns
    -------
    done : list of (Tree, alternatives taken)
        In the order the trees were started: the greedy tree first.
    truncated, cancelled : bool
    """
    cache = {}
    queue = [(0, TreeGrower(X, y, **params), 0)]  # (order started, grower, alternatives taken)
    started, done, truncated, cancelled = 1, [], False, False
    while queue:
        order, grower, taken = queue.pop(0)
        node = grower.next_node()
        if node is None:
            done.append((order, grower.tree, taken))
            if report(progress, should_stop, len(done), max_trees):
                cancelled = True
                break
            continue
        options = near_tie_options(grower, node, epsilon, cache)
        room = max_trees - len(queue) - len(done) - 1
        if len(options) - 1 > room:
            truncated = True
            options = options[: 1 + max(room, 0)]
        for option in options[1:]:
            queue.append((started, _branch(grower, X, y, params, node, option), taken + 1))
            started += 1
        if options:
            _expand(grower, node, options[0])
        else:  # no candidate left (next_node saw one): let the builder decide
            grower.step()
        queue.append((order, grower, taken))
    done.sort(key=lambda item: item[0])
    return [(tree, taken) for _, tree, taken in done], truncated, cancelled


def tree_importances(tree):
    """Impurity-based importance of every feature in ``tree`` (summing to 1, or all 0).

    The weighted impurity decrease ``w_t I(t) - w_L I(L) - w_R I(R)`` of
    every split, summed by feature and normalised (Breiman et al., 1984).
    """
    internal = np.flatnonzero(tree.feature >= 0)
    w, imp = tree.weighted_n_samples, tree.impurity
    left, right = tree.left[internal], tree.right[internal]
    decrease = w[internal] * imp[internal] - w[left] * imp[left] - w[right] * imp[right]
    totals = np.bincount(
        tree.feature[internal], weights=np.maximum(decrease, 0.0), minlength=tree.n_features
    )
    return totals / totals.sum() if totals.sum() > 0 else totals


def _predictions(trees, X, op, task, classes):
    out = np.stack([t.predict(X, op) for t in trees])
    return classes[np.argmax(out, axis=2)] if task == "classification" else out


def _disagreement(predictions, task, scale, tolerance):
    """Ambiguous rows (some two trees disagree) and the discrepancy with the first tree."""
    if task == "classification":
        ambiguous = np.any(predictions != predictions[:1], axis=0)
        differs = predictions != predictions[:1]
    else:
        limit = tolerance * scale
        ambiguous = predictions.max(axis=0) - predictions.min(axis=0) > limit
        differs = np.abs(predictions - predictions[:1]) > limit
    return ambiguous, float(differs.mean(axis=1).max()) if len(differs) else 0.0


def _feature_use(trees, names):
    importances = np.array([tree_importances(t) for t in trees])
    used = np.array([np.isin(np.arange(t.n_features), t.feature[t.feature >= 0]) for t in trees])
    return pd.DataFrame(
        {
            "feature": np.arange(len(names)),
            "name": names,
            "share_of_trees": used.mean(axis=0),
            "mean_importance": importances.mean(axis=0),
            "min_importance": importances.min(axis=0),
            "max_importance": importances.max(axis=0),
        }
    ).sort_values(["share_of_trees", "mean_importance"], ascending=False, ignore_index=True)


def _internal_sequence(tree, names):
    """(path, split) of every internal node in breadth-first order."""
    paths = node_paths(tree)
    return [(p, split_text(tree, n, names)) for n, p in paths.items() if tree.feature[n] >= 0]


def _shared_chain(sequences, members, position):
    """Splits all ``members`` share from ``position`` on, and where they part."""
    chain = []
    while all(position < len(sequences[m]) for m in members):
        steps = {sequences[m][position] for m in members}
        if len(steps) != 1:
            break
        chain.append(steps.pop())
        position += 1
    return chain, position


def _parting(sequences, members, position):
    """Members grouped by their split at ``position`` (trees that end there form no group)."""
    groups = {}
    for m in members:
        if position < len(sequences[m]):
            groups.setdefault(sequences[m][position], []).append(m)
    return list(groups.values())


def alternative_paths(trees, names, max_detail=6):
    """The trees' splits, breadth first, as a prefix tree compressed at its branch points.

    Every tree is the sequence of its splits in breadth-first order, written
    ``path: split``. Trees that agree on their first splits share a branch; a
    new branch starts where trees part (a near-tie resolved both ways). Its
    ``label`` is the split where it starts and its ``detail`` the splits its
    trees share after it; ``n_trees`` counts its trees, so the counts of a
    branch's children add up to its own (``branchvalues="total"`` in plotly).

    Returns
    -------
    pandas.DataFrame
        ``id``, ``parent`` (``""`` at the top), ``label``, ``n_trees``, ``detail``.
    """
    sequences = [_internal_sequence(t, names) for t in trees]
    rows = []

    def add(members, position, parent):
        chain, position = _shared_chain(sequences, members, position)
        ident = parent
        if chain:
            ident = f"b{len(rows)}"
            shown = [f"{p}: {s}" for p, s in chain[1 : 1 + max_detail]]
            more = len(chain) - 1 - max_detail
            rows.append(
                {
                    "id": ident,
                    "parent": parent,
                    "label": f"{chain[0][0]}: {chain[0][1]}",
                    "n_trees": len(members),
                    "detail": "<br>".join(shown + ([f"… {more} more"] if more > 0 else [])),
                }
            )
        for group in _parting(sequences, members, position):
            add(group, position, ident)

    if trees:
        add(list(range(len(trees))), 0, "")
    return pd.DataFrame(rows, columns=["id", "parent", "label", "n_trees", "detail"])


def _evaluation_rows(X, y, task, X_test, y_test, test_share, random_state):
    """Training and evaluation data: given, held out, or (test_share 0) the training rows."""
    if X_test is not None:
        if y_test is None:
            raise ValueError("X_test needs y_test.")
        return X, y, np.asarray(X_test, dtype=float), np.asarray(y_test), "held-out rows"
    if not 0.0 <= test_share < 1.0:
        raise ValueError(f"test_share must be in [0, 1), got {test_share}.")
    if test_share == 0.0:
        return X, y, X, y, "training rows"
    train, test = train_test_rows(task, y, test_share, seed=random_state)
    return X[train], y[train], X[test], y[test], "held-out rows"


def _set_table(trees, taken, scores, names):
    return pd.DataFrame(
        {
            "tree": np.arange(len(trees)),
            "score": scores,
            "n_leaves": [t.n_leaves for t in trees],
            "depth": [t.max_depth for t in trees],
            "alternatives": taken,
            "root": [split_text(t, 0, names) for t in trees],
        }
    )


def near_tie_trees(
    X,
    y,
    epsilon=0.01,
    max_trees=200,
    random_state=0,
    *,
    task=None,
    X_test=None,
    y_test=None,
    test_share=0.3,
    tolerance=0.05,
    feature_names=None,
    progress=None,
    should_stop=None,
    **tree_params,
):
    """The distinct greedy trees obtained by branching on every near-tie (see the module docstring).

    Parameters
    ----------
    X, y : arrays
    epsilon : float, default=0.01
        Relative tolerance: options score at least ``(1 - epsilon)`` times the best.
    max_trees : int, default=200
    random_state : int, default=0
        Seeds the held-out split (the trees themselves involve no chance).
    task : {"classification", "regression"}, optional
        Inferred from ``criterion``, else from ``y`` (non-integer floats: regression).
    X_test, y_test : arrays, optional
        Rows to evaluate the trees on; then the trees are grown on all of ``X``.
    test_share : float, default=0.3
        Without ``X_test``: the share of rows held out (stratified) to
        evaluate on; 0 evaluates on the training rows.
    tolerance : float, default=0.05
        Regression: predictions differ when further apart than this times the SD of y.
    feature_names : list of str, optional
    progress : callable(done, total), optional
        Called with the number of finished trees and ``max_trees``.
    should_stop : callable() -> bool, optional
        Stops the enumeration; the trees finished so far are kept.
    **tree_params
        The grower's settings: ``criterion``, ``max_depth``, ``min_samples_split``,
        ``min_samples_leaf``, ``max_leaf_nodes``, ``max_nodes``,
        ``min_impurity_decrease``, ``categorical_features``,
        ``categorical_split``, ``growth``; ``conditioning`` is the test used
        to predict.

    Returns
    -------
    NearTieSet
    """
    if int(max_trees) < 1:
        raise ValueError(f"max_trees must be at least 1, got {max_trees}.")
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    params, op = _grower_params(tree_params)
    task = task or _infer_task(y, params.get("criterion"))
    if task == "regression":
        params.setdefault("criterion", "squared_error")
    names = feature_names_of_data(X, feature_names)
    params["feature_names"] = names
    X_train, y_train, X_eval, y_eval, evaluated_on = _evaluation_rows(
        X, y, task, X_test, y_test, test_share, random_state
    )
    done, truncated, cancelled = _enumerate(
        X_train, y_train, params, epsilon, int(max_trees), progress, should_stop
    )
    measures = _measures(done, X_eval, y_eval, y_train, task, op, tolerance, names)
    return NearTieSet(
        **measures,
        evaluated_on=evaluated_on,
        epsilon=float(epsilon),
        max_trees=int(max_trees),
        truncated=truncated,
        task=task,
        feature_names=names,
        cancelled=cancelled,
    )


def _measures(done, X_eval, y_eval, y_train, task, op, tolerance, names):
    """The trees of the set and what they say on the evaluation rows."""
    trees = [t for t, _ in done]
    classes = np.unique(y_train) if task == "classification" else None
    predictions = _predictions(trees, X_eval, op, task, classes)
    scores = np.array([1.0 - error(task, y_eval, p) for p in predictions])
    scale = float(np.std(y_train.astype(float))) if task == "regression" else 1.0
    ambiguous, discrepancy = _disagreement(predictions, task, scale, tolerance)
    return {
        "trees": trees,
        "table": _set_table(trees, [a for _, a in done], scores, names),
        "feature_use": _feature_use(trees, names),
        "paths": alternative_paths(trees, names),
        "ambiguity": float(ambiguous.mean()) if ambiguous.size else 0.0,
        "discrepancy": discrepancy,
        "ambiguous": ambiguous,
        "metric": "accuracy" if task == "classification" else "R²",
    }


def feature_names_of_data(X, names):
    """``names`` as strings, or ``x0, x1, ...`` for the columns of ``X``."""
    if names is None:
        return [f"x{j}" for j in range(X.shape[1])]
    if len(names) != X.shape[1]:
        raise ValueError(f"{len(names)} feature names for {X.shape[1]} columns.")
    return [str(n) for n in names]
