"""Plain-language meanings of the symbols and terms the pages use, in one place.

Pages take a term's text for a widget's or a metric's ``help=`` with
:func:`explain`, and the frame shows them all in a popover (:func:`popover`).
"""

import streamlit as st

__all__ = ["TERMS", "explain", "popover"]

TERMS = {
    "lattice feature": "A feature whose values are evenly spaced (counts, ages, rounded prices): some observed "
    "value lies exactly midway between two others, so a midpoint threshold can fall on a value new data "
    "takes (source 000, §4.1).",
    "ρ (rho)": "The share of a model's splits whose threshold is an observed value of a lattice feature, "
    "with observed values on both sides at the same distance: the splits where `x ≤ t` and `x < t` can send a "
    "new row different ways. Table 2 counts it on the model fitted to all the data (source 000, §4.5).",
    "ρ_k (rho_k)": "ρ counted over the models fitted in the cross-validation folds (80% of the rows each), "
    "against each fold's training rows, as the paper counts it (Table 2); the page can also count it against "
    "every observed value of the dataset, the values a held-out row can take.",
    "p≠": "Whether the scores under `x ≤ t` and `x < t` differ significantly over the same folds (Wilcoxon "
    "signed-rank test): * they differ, = no significant difference (source 000, Table 2).",
    "p≤ and p<": "Whether the bias-free variant (the average for a tree, half-and-half for a forest) scores "
    "significantly higher (+) or lower (-) than with `x ≤ t` or with `x < t`; = no significant difference "
    "(source 000, Table 3).",
    "marks (* + - =)": "One notation on every page and table: * the two tests score differently (p≠); + the "
    "bias-free variant scores higher than that test, - lower (p≤, p<); = no significant difference (the paper "
    "leaves such cells empty).",
    "d": "The mean score under `x ≤ t` minus the mean score under `x < t`, over the same folds (source 000, "
    "Table 2): positive when scikit-learn's test does better.",
    "gain (Table 3)": "The bias-free variant's mean score minus that of the worse of the two tests, shown only "
    "when the variant beats it significantly (source 000, Table 3).",
    "significance rule": "When a Wilcoxon result counts as significant. The paper's rule: the smaller of the two "
    "one-sided p-values is below 0.05 (a two-sided test at 0.10). The stricter rule: the two-sided p-value is "
    "below 0.05.",
    "tie-break": "Which feature a node splits on when two give exactly the same score: the one listed first, or "
    "the first of a random order drawn per node (scikit-learn). It changes which thresholds a tree has, and so "
    "which rows sit on one.",
    "threshold precision": "Whether values and thresholds are compared in float64 or, as scikit-learn does, "
    "rounded to float32 first. A midpoint between two decimals (2.35 between 2.3 and 2.4) equals an observed "
    "2.35 in float64 but not in float32, so the precision decides which rows sit on a threshold.",
    "score": "How good a candidate split is under the criterion: the impurity decrease (gain) for Gini, "
    "entropy and misclassification, Pearson's chi-square statistic for chi2, the variance decrease for "
    "regression. Higher is better.",
    "gain": "The impurity of a node minus the weighted impurities of its two children (source 004, §4.1).",
    "AUC": "Area under the ROC curve: the chance that a random positive row is scored above a random "
    "negative one (1 is perfect, 0.5 is guessing).",
    "R²": "The share of the target's variance a regression model explains (1 is perfect, 0 is no better "
    "than predicting the mean).",
    "bias (log-odds)": "log10 of the odds that a criterion picks the first of two uninformative features: "
    "0 is fair, positive favours the first (source 001, eq. 7).",
    "p-value selection": "Choosing the split variable by the smallest p-value of its best split instead of the "
    "largest gain, which removes the preference for features with many values (source 001).",
    "s_l": "The depth of a node counted from 1 at the root (source 002's option tolerance η_l = η₀ / s_l³).",
    "φ (phi)": "The weight of each threshold in a robust split module's neighbourhood (source 002, eq. 2).",
    "ψ (psi)": "The share of a row a module sends left: the φ-weighted share of its thresholds the row "
    "passes (source 002).",
    "spread": "The weighted variance of the leaf values a row reaches in a cultivated forest: the larger, "
    "the less reliable its prediction (source 002).",
    "structural distance": "0 when two trees ask the same questions, 1 when their roots differ; in between, "
    "the share of the data that meets a different question.",
    "rows to flip": "The fewest training rows whose removal lets another split win at a node: 1 means a "
    "single row decides it.",
    "near-tie": "A candidate split whose score is within a small share (ε) of the best: the tree could as "
    "well have taken it.",
    "out-of-bag (OOB)": "Rows a tree of a forest did not see in its bootstrap sample; scoring them estimates "
    "the test error without a test split.",
}


def explain(term):
    """The meaning of ``term`` (a key of :data:`TERMS`)."""
    return TERMS[term]


def popover(container):
    """Every term and its meaning, in a popover."""
    with container.popover("Glossary", help="What the symbols and terms on the pages mean."):
        for term, meaning in TERMS.items():
            st.markdown(f"**{term}**: {meaning}")
