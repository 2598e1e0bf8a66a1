"""Fitted models of the conditioning-bias page, cached across reruns (never mutated)."""

import streamlit as st

from trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)


@st.cache_resource(show_spinner="Fitting the tree...", max_entries=16)
def fit_tree(X, y, task, max_depth, min_samples_leaf):
    cls = DecisionTreeClassifier if task == "classification" else DecisionTreeRegressor
    return cls(max_depth=max_depth, min_samples_leaf=min_samples_leaf).fit(X, y)


@st.cache_resource(show_spinner="Fitting the forest...", max_entries=8)
def fit_forest(X, y, task, n_estimators, max_depth, min_samples_leaf, seed):
    cls = RandomForestClassifier if task == "classification" else RandomForestRegressor
    return cls(
        n_estimators=n_estimators, max_depth=max_depth, min_samples_leaf=min_samples_leaf,
        random_state=seed, n_jobs=2,
    ).fit(X, y)


SMALL = 20


@st.cache_data(show_spinner=False, max_entries=16)
def split_rows(X, y, stratify, test_share=0.3, seed=0):
    """Training and held-out rows (stratified for classification when every class has 2 rows)."""
    import numpy as np
    from sklearn.model_selection import train_test_split

    strata = y if stratify and np.unique(y, return_counts=True)[1].min() >= 2 else None
    if len(y) < SMALL:  # too small to hold rows out: use all rows for both
        return X, X, y, y
    return train_test_split(X, y, test_size=test_share, random_state=seed, stratify=strata)
