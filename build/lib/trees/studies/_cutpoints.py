"""Cutpoints at every node over refits: stablelearner's view, node by node.

The R package stablelearner (Philipp, Zeileis and Strobl, 2016, "A toolkit
for stability assessment of tree-based learners", COMPSTAT; Philipp, Rusch,
Hornik and Strobl, 2018, "Measuring the stability of results from supervised
statistical learning", JCGS 27) refits a tree on resampled data and shows,
for every variable, how often it is selected and where its cutpoints fall,
pooled over the whole tree. Here the same counts are kept *per node*: for
each position of the top levels of the tree (``root``, ``root-L``,
``root-R``, ``root-L-L`` ...; see :mod:`trees.studies._paths`), which feature
each refit splits on there and at which threshold.

A position is the same in two refits when it is reached by the same turns
from the root; the questions above it may differ. The ``ancestors`` column
names them, so a view can keep only the refits whose top splits agree with
a reference (stablelearner's refits are compared the same way, on the
variables and cutpoints they choose, whatever the tree above).
"""

import numpy as np
import pandas as pd

from ._paths import feature_names_of, node_paths, split_text

__all__ = ["cutpoint_summary", "node_cutpoints"]


def _ancestors(tree, paths, names):
    """For every node: the features asked on the way to it, with the side taken."""
    out = {0: ""}
    for node in paths:
        if tree.feature[node] >= 0:
            here = names[int(tree.feature[node])]
            for child, side in ((tree.left[node], "L"), (tree.right[node], "R")):
                step = f"{here} ({side})"
                out[int(child)] = f"{out[node]} › {step}" if out[node] else step
    return out


def node_cutpoints(trees, max_depth=2, feature_names=None):
    """The split of every refit at every position of the top ``max_depth + 1`` levels.

    Parameters
    ----------
    trees : list of Tree
        Refits of one learner on perturbed data (e.g. ``perturbation_study(...).trees``).
    max_depth : int, default=2
        Deepest level kept (0: the root only).
    feature_names : list of str, optional

    Returns
    -------
    pandas.DataFrame
        One row per refit and position it has: ``refit``, ``path``,
        ``depth``, ``node``, ``feature`` (-1 at a leaf), ``feature_name``
        (``"leaf"`` at a leaf), ``threshold`` (NaN at a leaf or a category
        set), ``split``, ``n_samples``, ``share`` (of the refit's training
        weight reaching it), ``ancestors``.
    """
    if max_depth < 0:
        raise ValueError(f"max_depth must be at least 0, got {max_depth}.")
    records = []
    for refit, tree in enumerate(trees):
        names = feature_names_of(tree, feature_names)
        paths = node_paths(tree)
        ancestors = _ancestors(tree, paths, names)
        total = tree.weighted_n_samples[0]
        for node, path in paths.items():
            depth = path.count("-")
            if depth > max_depth:
                continue
            feature = int(tree.feature[node])
            numeric = feature >= 0 and tree.categories[node] is None
            records.append(
                {
                    "refit": refit,
                    "path": path,
                    "depth": depth,
                    "node": int(node),
                    "feature": feature,
                    "feature_name": names[feature] if feature >= 0 else "leaf",
                    "threshold": float(tree.threshold[node]) if numeric else np.nan,
                    "split": split_text(tree, node, names),
                    "n_samples": int(tree.n_samples[node]),
                    "share": float(tree.weighted_n_samples[node] / total) if total > 0 else np.nan,
                    "ancestors": ancestors[int(node)],
                }
            )
    columns = [
        "refit", "path", "depth", "node", "feature", "feature_name", "threshold", "split",
        "n_samples", "share", "ancestors",
    ]  # fmt: skip
    return pd.DataFrame(records, columns=columns)


def _path_order(paths):
    """Breadth-first order of path names: by depth, then left before right."""
    return sorted(set(paths), key=lambda p: (p.count("-"), p.replace("L", "0").replace("R", "1")))


def cutpoint_summary(cutpoints, n_refits=None):
    """Per position: how often it exists, which feature splits it, and where.

    Parameters
    ----------
    cutpoints : pandas.DataFrame
        From :func:`node_cutpoints`.
    n_refits : int, optional
        Number of refits (default: as many as appear in ``cutpoints``).

    Returns
    -------
    pandas.DataFrame
        One row per position in breadth-first order: ``path``, ``depth``,
        ``present`` (share of refits having a node there), ``split_share``
        (share of refits splitting there), ``top_feature``,
        ``top_share`` (its share of the refits splitting there),
        ``n_features`` (distinct features used there), ``threshold_median``,
        ``threshold_q10``, ``threshold_q90`` (of the top feature's thresholds).
    """
    n_refits = n_refits or (int(cutpoints["refit"].max()) + 1 if len(cutpoints) else 0)
    rows = []
    for path in _path_order(cutpoints["path"]):
        here = cutpoints[cutpoints["path"] == path]
        splits = here[here["feature"] >= 0]
        counts = splits["feature_name"].value_counts()
        top = counts.index[0] if len(counts) else ""
        values = splits.loc[splits["feature_name"] == top, "threshold"].dropna().to_numpy()
        rows.append(
            {
                "path": path,
                "depth": path.count("-"),
                "present": len(here) / n_refits if n_refits else np.nan,
                "split_share": len(splits) / n_refits if n_refits else np.nan,
                "top_feature": top,
                "top_share": float(counts.iloc[0] / len(splits)) if len(splits) else np.nan,
                "n_features": int(len(counts)),
                "threshold_median": float(np.median(values)) if values.size else np.nan,
                "threshold_q10": float(np.quantile(values, 0.1)) if values.size else np.nan,
                "threshold_q90": float(np.quantile(values, 0.9)) if values.size else np.nan,
            }
        )
    return pd.DataFrame(rows)
