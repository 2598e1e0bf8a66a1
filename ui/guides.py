"""The guided sequences of presenter mode: for each page, what to show, what to ask, what to reveal.

Written from the source papers (docs/SOURCES.md). Each page's steps follow
its own layout: the first step is the page's key picture.
"""

from dataclasses import dataclass

__all__ = ["GUIDES", "Step"]


@dataclass(frozen=True)
class Step:
    """One step of a guided sequence."""

    title: str
    show: str
    ask: str
    reveal: str


GUIDES = {
    "home": [
        Step(
            "One tree, two tests",
            "The two drawings at the top: the same tree, once testing `x <= t` and once `x < t`.",
            "The paper's applicant has 3 dependents, exactly the threshold. Which leaf does each tree send "
            "the applicant to?",
            "Under `<=` the applicant goes left and pays back; under `<` right and defaults. Same data, same "
            "tree, opposite decisions: the threshold test is a hidden modelling choice (source 000, §2.3).",
        ),
        Step(
            "Where the lab goes next",
            "The list of pages below the picture.",
            "Which of these effects have you met in your own models: instability, a staircase, a bias?",
            "Every page answers one question with a picture first; the settings and the papers' experiments "
            "sit behind it.",
        ),
    ],
    "conditioning": [
        Step(
            "Two tests, two surfaces",
            "The surfaces under `<=`, `<` and their average, and the panel where `<=` and `<` differ.",
            "The trees are identical: same splits, same thresholds. How can their predictions differ at all?",
            "Only at rows whose value equals a threshold. On lattice features (counts, ages, rounded prices) "
            "a midpoint threshold can coincide with a value new data takes (source 000, §2.3).",
        ),
        Step(
            "Count the fragile splits",
            "ρ, the share of splits whose threshold lies on an observed lattice value, and the tree with those "
            "nodes marked.",
            "If ρ is 0.2, how many of the tree's decisions depend on which test the library happens to use?",
            "One in five. scikit-learn uses `<=`, R's `tree` uses `<`: the same data can give different "
            "predictions in two libraries (Table 2).",
        ),
        Step(
            "Mirroring",
            "The tree and its mirror 𝓜[T], and the worked example's table.",
            "How could we get the `<` predictions from a library that only offers `<=`?",
            "Negate the features and mirror the tree: T(x, <) = 𝓜[T](−x, ≤) exactly (§3.1).",
        ),
        Step(
            "Integrate the bias out",
            "The forest panels: `<=`, `<`, average, and half of the trees each way.",
            "Averaging costs a second prediction for a tree. What does it cost a forest?",
            "Nothing: let half of the trees use `<` and half `<=` (§3.3). In the paper's experiment the average "
            "is never significantly worse than the better test, and often better than the worse (Table 3).",
        ),
    ],
    "split_bias": [
        Step(
            "A fair race between two useless features",
            "The two heatmaps at the top, first the Gini gain's.",
            "Neither feature is related to the class. How often should a fair criterion pick the one with "
            "10 values over the one with 2?",
            "Half of the time (bias 0, white). The Gini gain picks the 10-valued feature far more often (red): "
            "more values give chance more ways to look informative (source 001, section 3).",
        ),
        Step(
            "Correct the criterion, not the data",
            "The right heatmap: the Gamma-corrected Gini.",
            "What could make a criterion fair whatever the number of values?",
            "Compare p-values instead of gains: the chance of a gain this large if the feature were useless. "
            "Dobra and Gehrke prove p-values are nearly unbiased and give the Gini gain's null moments exactly "
            "(eqs. 19-21).",
        ),
        Step(
            "Every criterion",
            'The tab "All six criteria".',
            "Which criteria are gains and which are p-values? Which of them are fair?",
            "Gini gain, information gain and gain ratio lean to many values; the chi-square, G-square and "
            "corrected Gini p-values are nearly fair, except near p₁ N = 1, where all tests lean to few values.",
        ),
        Step(
            "On your data",
            'The tab "On your data": noise columns added to the current dataset.',
            "Would a tree ever put pure noise at its root?",
            "With the Gini gain it can, when the real features are weak; with p-value selection it rarely does.",
        ),
    ],
    "staircase": [
        Step(
            "A diagonal boundary",
            "The picture: classes split by an oblique line, the tree's regions, the logistic line dashed.",
            "A tree asks one question about one feature at each node. How can it draw a diagonal?",
            "Only as a staircase of axis-parallel steps; each step costs a split, so an oblique boundary needs a "
            "deep tree where one linear cut would do (source 003, the staircase effect).",
        ),
        Step(
            "More depth, finer stairs",
            "Raise the maximum depth in the settings, then add label noise.",
            "Does a deeper tree always draw the boundary better?",
            "It follows the boundary more closely, then starts carving boxes around single noisy points: lower "
            "training error, not lower test error.",
        ),
        Step(
            "No extrapolation",
            "The tab on regression: a smooth curve and the tree's steps; the grey bands have no data.",
            "What does the tree predict to the right of the last training point?",
            "The value of its outermost leaf, flat for ever: a tree cannot follow a trend beyond its data.",
        ),
        Step(
            "How deep to grow",
            'The tab "How deep to grow?": cross-validated error against the maximum depth and the minimum rows '
            "per leaf, with the linear baseline.",
            "Where is the test error lowest, and why does it rise again?",
            "Around depth 3 on the toy data: shallower trees are too coarse (bias), deeper ones fit noise "
            "(variance). On data with an oblique boundary the linear model may beat every tree.",
        ),
    ],
}
