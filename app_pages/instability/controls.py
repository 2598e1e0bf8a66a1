"""The instability page's settings: the tree, how the data is perturbed, how many refits; and
the snippet that reproduces the page's numbers.
"""

from dataclasses import dataclass

import streamlit as st

from trees.instability import DISTANCES, PERTURBATIONS
from ui import glossary, share
from ui.cached import SPLIT_BOOTSTRAPS
from ui.inputs import count_input
from ui.snippets import dataset_code
from viz.curves import plural

__all__ = [
    "DISTANCE_WORDS",
    "InstabilitySettings",
    "PERTURBATION_WORDS",
    "distance_choice",
    "settings_panel",
    "snippet",
]

PERTURBATION_WORDS = {
    "bootstrap": "bootstrap samples",
    "remove": "a few rows removed",
    "jitter": "features jittered",
}
DISTANCE_WORDS = {
    "partition": "partition metric (rows grouped differently)",
    "structural": "structural distance (questions asked)",
    "prediction": "1 − agreement (predictions)",
}


@dataclass(frozen=True)
class InstabilitySettings:
    """The settings every measure of the page shares."""

    max_depth: int | None
    kind: str
    amount: float
    n_fits: int
    n_bootstrap: int

    @property
    def params(self):
        """The tree's parameters as a hashable tuple of pairs."""
        return (("max_depth", self.max_depth),)

    def words(self):
        depth = f"depth {self.max_depth}" if self.max_depth is not None else "no depth limit"
        change = PERTURBATION_WORDS[self.kind]
        if self.kind == "remove":
            change = f"{plural(int(self.amount), 'row')} removed at random"
        elif self.kind == "jitter":
            change = f"features jittered by {self.amount:.0%} of their SD"
        return f"{depth} · {self.n_fits} refits on {change}"


def settings_panel(n_train):
    """The shared settings (in the URL): the tree's depth and how the refits change the data."""
    c1, c2, c3 = st.columns(3)
    depth = count_input(c1, "Maximum depth (0: none)", 0, 12, 4, "inst_depth")
    kind = share.selectbox(
        c2,
        "Change the data by",
        list(PERTURBATIONS),
        key="inst_kind",
        format_func=PERTURBATION_WORDS.get,
    )
    kind = kind if kind in PERTURBATIONS else "bootstrap"
    if kind == "remove" and n_train > 3:
        amount = count_input(c3, "Rows removed each time", 1, n_train // 2, 5, "inst_remove")
    elif kind == "jitter":
        amount = share.slider(
            c3, "Noise (share of each feature's SD)", 0.0, 0.5, 0.05, 0.01, key="inst_jitter"
        )
    else:
        amount = 1
        c3.caption(
            "Each refit draws as many rows as there are, with replacement."
            if kind == "bootstrap"
            else "Too few rows to remove some: one row is removed each time."
        )
    c4, c5 = st.columns(2)
    n_fits = share.slider(c4, "Refits", 10, 200, 30, 10, key="inst_fits")
    n_bootstrap = share.slider(
        c5,
        "Bootstrap samples per node (split confidence)",
        0,
        200,
        SPLIT_BOOTSTRAPS,
        10,
        key="inst_boot",
        help=glossary.explain("bootstrap win rate"),
    )
    return InstabilitySettings(
        max_depth=int(depth) or None,
        kind=kind,
        amount=float(amount),
        n_fits=int(n_fits),
        n_bootstrap=int(n_bootstrap),
    )


def distance_choice():
    """The distance between two refits that the map and the mean distance use (shared)."""
    kinds = list(DISTANCES)
    kind = share.selectbox(
        st,
        "Distance between two refits",
        kinds,
        kinds.index("partition"),
        key="inst_distance",
        format_func=DISTANCE_WORDS.get,
        help=glossary.explain("partition metric"),
    )
    return kind if kind in kinds else "partition"


def snippet(settings, epsilon, max_trees, n_seeds, held_out=True, subsampled=False):
    """Python that reproduces the page's main numbers with the ``trees`` package."""
    rows = (
        "train, test = train_test_rows(data.task, y, 0.3, seed=0)\n"
        if held_out
        else "train = test = np.arange(len(y))  # fewer than 20 rows: nothing held out\n"
    )
    sample = "X, y = subsample(X, y, 20_000, 0)[:2]  # the page's sample\n" if subsampled else ""
    return (
        "import numpy as np\n"
        "from datasets import generate, load, preprocess, read_table, table_to_dataset\n"
        "from trees.instability import (\n"
        "    mean_pairwise, near_tie_trees, perturbation_study, prediction_agreement,\n"
        "    split_confidence, tie_break_study,\n"
        ")\n"
        "from trees.tasks import make_tree, subsample, train_test_rows\n\n"
        f"{dataset_code()}\n"
        "X, y = data.arrays()\n"
        + sample
        + rows
        + f"params = {{'max_depth': {settings.max_depth!r}}}\n"
        "tree = make_tree(data.task, params).fit(X[train], y[train])\n"
        "confidence = split_confidence(\n"
        f"    tree, X[train], y[train], n_bootstrap={settings.n_bootstrap}, random_state=0\n"
        ")\n"
        'print(confidence[["path", "split", "rows_to_flip", "boot_win_rate"]])\n'
        "study = perturbation_study(\n"
        f"    X[train], y[train], data.task, params=params, n_fits={settings.n_fits},\n"
        f"    perturbation={settings.kind!r}, amount={settings.amount!r}, X_test=X[test],\n"
        "    random_state=0,\n"
        ")\n"
        "agreement = mean_pairwise(prediction_agreement(study.trees, X[test]))\n"
        'print(f"two refits agree on {agreement:.1%} of the held-out rows")\n'
        "near = near_tie_trees(\n"
        f"    X[train], y[train], epsilon={epsilon!r}, max_trees={max_trees}, task=data.task,\n"
        "    X_test=X[test], y_test=y[test], max_depth=params['max_depth'],\n"
        "    criterion='gini' if data.task == 'classification' else 'squared_error',\n"
        ")\n"
        "print(near.summary())\n"
        f"ties = tie_break_study(X[train], y[train], data.task, params, n_seeds={n_seeds}, X_test=X[test])\n"
        'print("seeds that change the tree:", ties.n_differ, "distinct trees:", ties.n_distinct)\n'
    )
