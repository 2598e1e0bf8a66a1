"""Home: what Tree Bias Lab shows, page by page, and why it matters."""

import streamlit as st

from ui import shell, state

shell.page_frame()

st.title("Tree Bias Lab")
st.markdown(
    "Decision trees are easy to read and hard to trust: a small change in the data can change "
    "the whole tree, and details that look harmless (whether a threshold test is `x <= t` or "
    "`x < t`, which criterion picks the split variable) bias what they predict. This lab lets "
    "you see those effects on bundled data or on your own, and try the remedies the literature "
    "proposes."
)

st.subheader("What each page shows")
st.markdown(
    """
- **Data**: pick a bundled dataset, generate one with your parameters, or upload a CSV. See
  every feature's kind, missing values and whether it lies on a *lattice* (evenly spaced
  values, where threshold tests become ambiguous), the class balance, and any two features
  against each other. Missing values and categories are handled as the sources do it, and the
  page shows what was done.
- **Grow a tree step by step**: split one node at a time in best-gain or level order, see every
  feature's best threshold and the whole score curve behind it (near-ties are where trees
  become unstable), split a node yourself, undo, and follow the train and held-out scores.
- **Staircase and depth**: why a tree draws a staircase along a diagonal boundary and steps along
  a smooth curve (and stays flat beyond the data), and the train and cross-validated error against
  depth and leaf size, with a linear baseline.
- **Tree instability**: refit the tree on bootstrap samples, with rows removed or features
  jittered, and count how often the root changes, how far the trees drift and how many
  predictions flip; remove a single row and see which nodes change.
- **Evaluate and tune**: a held-out test split, one tree per criterion grown to purity, a search
  over the stopping rules by k-fold, holdout or nested cross-validation, the best tree's confusion
  matrix and ROC curve, and a random forest with the same settings and its out-of-bag error.
- **Cultivated random forests**: a tree whose nodes hesitate, with robust split modules (a
  neighbourhood of thresholds) and option modules (several features); its soft decision surface
  beside CART's and a random forest's, the leaves a row reaches and how reliable its prediction
  is, abstention, and a cross-validated comparison.
- **The conditioning bias**: the same tree under `x <= t`, `x < t` and their average, side by
  side, with the splits whose thresholds sit on observed values, the mirrored tree, the same for a
  random forest (where half of the trees can use each test for free), and the paper's
  cross-validated Wilcoxon experiment on your data or on all 40 of its datasets.
- **Split-variable selection bias**: how much the Gini gain, the information gain and the gain
  ratio favour features with many values when nothing is informative, the null distribution of
  the Gini gain against its Gamma approximation, and how often a tree's root picks pure noise on
  your data, with and without the p-value correction.
"""
)
st.markdown(
    "Every page builds on this data and on the `trees` package, which you can also use from a "
    "notebook: see the README."
)

data = state.current()
st.subheader(f"The data you are working on: {data.name}")
col1, col2, col3 = st.columns(3)
col1.metric("Rows", f"{data.n_rows:,}")
col2.metric("Features", data.n_features)
col3.metric("Task", data.task)
st.caption(data.description)
st.page_link("pages/data.py", label="Change the data", icon=":material/table_chart:")
