"""Plain-language meanings of the symbols and terms the pages use, in one place.

Pages take a term's text for a widget's or a metric's ``help=`` with
:func:`explain`, and the frame shows them all in a popover (:func:`popover`).
"""

import streamlit as st

__all__ = ["TERMS", "explain", "popover"]

TERMS = {
    "decision tree": "A model that predicts by asking yes/no questions about a row's features, one after "
    "another, until it reaches an answer. Drawn upside down: the first question (the root) at the top.",
    "row (example)": "One case of the table: an applicant, a patient, a mushroom. The tree learns from the "
    "training rows and predicts new ones.",
    "feature": "A column the tree may ask about (income, number of dependents). Also called a variable, "
    "covariate or attribute.",
    "class": "One of the answers a classification tree predicts (pays back or defaults). The column holding "
    "it is the target.",
    "target": "The column the tree learns to predict: a class (classification) or a number (regression).",
    "split": "A question that divides a node's rows in two, `x ≤ t` for a number: the rows that answer yes "
    "go to the left child, the others to the right.",
    "threshold": "The number t of a split `x ≤ t`. A tree tries the midpoint between each two neighbouring "
    "values of the feature, because any t between them divides the rows the same way.",
    "candidate split": "One of the splits a node could make: each feature with each of its thresholds. The "
    "tree scores them all and keeps the best.",
    "node": "A box of the tree holding some of the training rows. An internal node asks a question and has "
    "two children; a node that asks none is a leaf.",
    "root": "The top node of a tree: it holds every training row and asks the first question.",
    "leaf": "A node that asks no more questions. It predicts the class most of its training rows have (or "
    "their mean, in regression); a new row that reaches it gets that answer.",
    "path": "The nodes a row visits from the root to its leaf, one answer at a time.",
    "depth": "How many questions lie between the root and a node (the root has depth 0); a tree's depth is "
    "that of its deepest leaf. Deeper trees ask more questions and fit the training rows more closely.",
    "impurity": "How mixed the classes of a node's rows are: 0 when they all have one class, largest when "
    "the classes are equally frequent. A split is good when its children are purer than their parent.",
    "Gini impurity": "1 minus the sum of the squared class shares of a node: the chance that two rows drawn "
    "at random from it (with replacement) have different classes. 4 rows of one class and 6 of the other: "
    "1 − 0.4² − 0.6² = 0.48.",
    "entropy": "Another impurity: minus the sum of p log₂ p over the class shares, the bits needed to say a "
    "row's class. 0 when pure, 1 for two equally frequent classes. Its gain is the information gain.",
    "pure node": "A node whose rows all have the same class (impurity 0): splitting it cannot make it purer, "
    "so it becomes a leaf.",
    "training set": "The rows a tree is grown on. Its error there says little about new rows: a tree grown "
    "to purity makes no mistake on them.",
    "held-out (test) set": "Rows kept away from the fit and used only to measure the error on rows the model "
    "has not seen: the honest estimate of how it will do on new data.",
    "overfitting": "Learning the training rows' accidents instead of their pattern: a deep tree fits every "
    "training row, noise included, and predicts new rows worse than a shallower one.",
    "pruning": "Cutting back the branches of a grown tree that buy too little: a smaller tree that overfits "
    "less.",
    "regression tree": "A tree that predicts a number: each leaf predicts the mean of its training rows' "
    "targets, and splits are chosen to lower their variance.",
    "bootstrap": "A sample of the rows drawn with replacement, as many as there are rows: some rows come "
    "several times, about a third not at all. Refitting on bootstrap samples shows how much a model "
    "depends on the particular rows it saw.",
    "random forest": "Many trees, each grown on a bootstrap sample with a random subset of the features tried "
    "at each node, whose predictions are averaged (or voted): steadier than one tree, harder to read.",
    "instability": "How much a tree changes when its training rows change a little: a different first "
    "question can change the whole tree below it.",
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
    "regression sums": "How a regression tree sums its targets. Centred on their mean (this package): a node "
    "whose rows all have the same target is a leaf. Raw, as scikit-learn sums them: the variance of such a node "
    "can come out a rounding error above zero, and the node is split at a threshold the rounding picks; those "
    "thresholds count in ρ too (source 000's excitation-current: about 40 of 350 splits).",
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
    "φ (phi)": "The weight of each threshold in a robust split module's neighbourhood: how much of the "
    "node's rows sit at that value, the outermost thresholds getting what is left of k (source 002, eq. 2). "
    "Thresholds where many rows sit count more.",
    "ψ (psi)": "The share of a row a module sends left: the φ-weighted share of its thresholds the row "
    "passes (source 002).",
    "k (neighbourhood size)": "How many rows' worth of weight a robust split module takes on each side of "
    "the best threshold; the paper uses the square root of the node's weight (source 002).",
    "ε (epsilon)": "The near-tie tolerance: a candidate split whose score is within this share of the best "
    "counts as a near-tie.",
    "α (alpha)": "The pruning strength of cost-complexity pruning: each leaf costs α, so a branch is kept "
    "only when it lowers the impurity by more than α per extra leaf.",
    "Γ (Gamma correction)": "Source 001's way to turn a Gini gain into a p-value: the gain's distribution "
    "when the feature is unrelated to the class is approximated by a Gamma distribution with the exact mean "
    "and variance, so features with many values are judged fairly.",
    "spread": "The weighted variance of the leaf values a row reaches in a cultivated forest: the larger, "
    "the less reliable its prediction (source 002).",
    "structural distance": "0 when two trees ask the same questions, 1 when their roots differ; in between, "
    "the share of the data that meets a different question.",
    "rows to flip": "The fewest training rows whose removal lets another split win at a node: 1 means a "
    "single row decides it.",
    "rows to move": "The fewest training rows whose removal changes which rows a node sends each way: "
    "another feature winning, or the same feature cutting elsewhere (a threshold that jumps across "
    "observed values). Never more than rows to flip.",
    "near-tie": "A candidate split whose score is within a small share (ε) of the best: the tree could as "
    "well have taken it.",
    "growth order": "Which leaf a step splits next: the one whose best split gains most (best first, "
    "scikit-learn's order with a leaf limit), or the oldest leaf in a queue, so the tree fills level by "
    "level from left to right (source 004, §3.4.2).",
    "stopping rules": "Limits that end the growth: maximum depth, leaves or nodes for the tree; "
    "minimum rows and zero impurity for a node (source 004, §3.4.1).",
    "bootstrap win rate": "The share of bootstrap samples of a node's rows in which the node's feature "
    "still wins: 100% is a firm choice, near 50% a coin toss.",
    "impurity importance": "A feature's share of the impurity decrease of all the tree's splits, on the "
    "training rows (Breiman et al., 1984). It also credits splits that only fit noise.",
    "permutation importance": "How much the held-out score drops when one feature's column is shuffled "
    "(Breiman, 2001): what the tree uses to predict new rows well.",
    "agreement": "The share of held-out rows on which two refits predict the same class (Turney, 1995); "
    "averaged over all pairs of refits it measures a learner's stability.",
    "partition metric": "The share of pairs of rows that one tree puts in the same leaf and the other in "
    "different leaves (0: the same partition of the data).",
    "ambiguity": "The share of held-out rows on which some two near-tie trees predict differently "
    "(Marx, Calmon and Ustun, 2020).",
    "representative tree": "The refit whose distances to all the others sum least (the medoid): the "
    "most typical tree of the set.",
    "out-of-bag (OOB)": "Rows a tree of a forest did not see in its bootstrap sample; scoring them estimates "
    "the test error without a test split.",
    "ID-like column": "A column with a different value on every row (a running number, a customer code): it "
    "names rows instead of describing them, so a tree could only memorise it. Excluded by default.",
    "missing-value threshold": "Columns with at least this share of missing values are dropped; the gaps "
    "of the others are filled. Source 004's code drops a feature when 20% or more of its values are missing (its text says 40%).",
    "fill rule": "How the gaps of a column are filled: numbers with the median (a typical value) or the "
    "most frequent value; categories with the most frequent value or a new category u (unknown), "
    "source 004's rule.",
    "membership condition": "A split of a categorical feature into a set of categories and the rest: "
    "x ∈ {a, c} goes left (source 004, §3.2).",
    "equality condition": "A split of a categorical feature on one category against all the others: "
    "x = a goes left (source 004, §3.2).",
    "decision metric": "The score that ranks candidate splits: misclassification, entropy (information "
    "gain), Gini impurity or chi-square (source 004, §4.1).",
    "exhaustive tree": "A tree grown with no stopping rule but purity: it splits until every leaf holds "
    "one class or no split helps (source 004, §4.2, Table 4.1).",
    "k-fold cross-validation": "The training rows are cut into k folds; each fold is scored by a tree "
    "fitted on the other k − 1, and the k errors are averaged (source 004, §4.3.2).",
    "holdout validation": "One part of the training rows is kept aside to score every setting fitted on "
    "the rest: fast, but it depends on which rows were kept aside (source 004, §4.3.3).",
    "nested cross-validation": "Cross-validation around a search: each outer fold runs its own inner "
    "search on the other folds, so the estimate of the error is not flattered by the search (§4.3.3).",
    "impurity-based importance": "How much a feature's splits lower the impurity, summed over the tree "
    "and normalised to 1. Computed on the training rows, it favours features with many values.",
    "robust split module": "A node that spreads its decision over the thresholds near the best one, each "
    "weighted by φ: a row near the boundary goes partly left and partly right (source 002).",
    "option module": "A node that keeps every feature whose split is almost as good as the best (within "
    "η_l), averaging their decisions (source 002).",
    "η₀ (eta0)": "The option tolerance at the root: a feature joins an option module when its impurity is "
    "within η_l = η₀ / s_l³ of the best (source 002).",
    "abstain": "Refuse to predict a row whose spread is above a threshold, and leave it to another "
    "decision (an expert, a new measurement): the predictions kept are more accurate (source 002, Fig. 4).",
}


def explain(term):
    """The meaning of ``term`` (a key of :data:`TERMS`)."""
    return TERMS[term]


# The popover's text, one paragraph per term: one element, not one per term. The popover is
# drawn on every run of every page, though closed; its 80 paragraphs as 80 elements were 80 of
# each run's messages for the browser to apply, and as one text of 13 KB they are one, which
# Streamlit sends once and then as a reference (its messages of 10 KB or more are cached).
_GLOSSARY_TEXT = "\n\n".join(f"**{term}**: {meaning}" for term, meaning in TERMS.items())


def popover(container):
    """Every term and its meaning, in a popover."""
    with container.popover("Glossary", help="What the symbols and terms on the pages mean."):
        st.markdown(_GLOSSARY_TEXT)
