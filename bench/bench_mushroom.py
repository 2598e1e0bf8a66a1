"""The exhaustive trees of source 004 on the Secondary Mushroom data, against scikit-learn (issue 15).

Usage: ``python -m bench.bench_mushroom``

All 61,069 rows, preprocessed as source 004 (section 2.2): columns with 40%
or more missing values dropped, the other gaps filled with a new category
``u``. The project's exhaustive entropy tree (no stopping rule but purity)
splits the nominal features natively by membership; scikit-learn's tree
needs them one-hot encoded (the encoding is not timed). Times are medians of
interleaved fits; the target of the ratio project / scikit-learn is 3 or
less. Then every criterion's exhaustive tree, timed alone, for reference.
"""

import time

import numpy as np
import pandas as pd
from sklearn import tree as sktree

from bench.common import interleaved, print_rows, ratio, warmed_up
from datasets import load, preprocess
from trees import DecisionTreeClassifier
from trees.tree import CLASSIFIER_CRITERIA


def mushroom_data():
    """Codes for the project, one-hot columns for scikit-learn, the target, the categorical columns."""
    data, _ = preprocess(
        load("secondary-mushroom"), keep_categories=True, categorical_fill="new category"
    )
    X, y = data.arrays()
    names = list(data.X.columns)
    categorical = [names.index(column) for column in data.categories]
    frame = pd.DataFrame(X, columns=names)
    onehot = pd.get_dummies(frame, columns=list(data.categories), dtype=np.float64)
    return X, onehot.to_numpy(), y, categorical


def run(repeat=5):
    print(f"warm_up: {warmed_up():.2f} s")
    X, X_onehot, y, categorical = mushroom_data()
    ours = DecisionTreeClassifier(criterion="entropy", categorical_features=categorical)
    theirs = sktree.DecisionTreeClassifier(criterion="entropy", random_state=0)
    times = interleaved(lambda: ours.fit(X, y), lambda: theirs.fit(X_onehot, y), repeat)
    rows = [
        [
            "entropy, membership vs one-hot",
            f"{X.shape[0]:,}x{X.shape[1]} ({X_onehot.shape[1]} one-hot)",
            ours.tree_.node_count,
            theirs.tree_.node_count,
            f"{times[0]:.3f}",
            f"{times[1]:.3f}",
            ratio(*times),
        ]
    ]
    print_rows(["tree", "data", "nodes", "sk nodes", "project s", "sklearn s", "ratio"], rows)
    others = []
    for criterion in CLASSIFIER_CRITERIA:
        start = time.perf_counter()
        model = DecisionTreeClassifier(criterion=criterion, categorical_features=categorical)
        model.fit(X, y)
        others.append(
            [
                criterion,
                model.get_depth(),
                model.tree_.node_count,
                f"{time.perf_counter() - start:.2f}",
            ]
        )
    print_rows(["criterion", "depth", "nodes", "fit s"], others)
    return rows


if __name__ == "__main__":
    run()
