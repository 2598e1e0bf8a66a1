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
            "One tree, two tests",
            "The picture at the top: the same tree under `x ≤ t` (scikit-learn) and `x < t` (R's `tree`), "
            "their average, and the purple lines where the two differ. Point at the black crosses.",
            "The two panels come from one tree: same splits, same thresholds. How can a new row get another "
            "prediction at all?",
            "Only when one of its values equals a threshold. Thresholds are midpoints between observed "
            "values; on lattice features (counts, ages, rounded prices) a midpoint can be a value new data "
            "takes, and there the test decides the side (source 000, §2.3). The average panel is white there: "
            "undecided, as it should be.",
        ),
        Step(
            "Count the fragile splits",
            'The tab "Tree and mirror": the splits with a purple double border, and ρ under the tree.',
            "If ρ is 0.2, how many of the tree's questions depend on a choice the library made for you?",
            "One in five. Switch the view to the mirror 𝓜[T]: children swapped, thresholds negated. "
            "T(x, <) = 𝓜[T](−x, ≤) exactly, so a library that only tests `≤` can still predict with `<` (§3.1).",
        ),
        Step(
            "The paper's loan applicant",
            'The tab "Worked example": the six records of Appendix A and the applicant with 3 dependents.',
            "The tree was grown on applicants with 2 and 4 dependents. Where should one with 3 go?",
            "Nobody knows: under `≤` she pays back, under `<` she defaults. The paths part at "
            "dependents ≤ 3, and the average gives 50 : 50, the honest answer (Figures 1 and 3).",
        ),
        Step(
            "A free remedy for forests",
            'The tab "Forest, four ways": `≤`, `<`, both tests in every tree, and half of the trees each way.',
            "Averaging both tests doubles a tree's work. What does it cost a forest of 100 trees?",
            "Nothing: let 50 trees use `<` and 50 use `≤` (*half*, §3.3). The last panel shows half and "
            "average differ only faintly.",
        ),
        Step(
            "Does it matter?",
            'The tab "Does it matter?": run the experiment, then "Tables 2 and 3" for the paper\'s datasets.',
            "Over hundreds of folds, will the two tests score differently, and which one wins?",
            "Often significantly (p≠ = *), and the winner changes with the data. The bias-free variant is never "
            "significantly worse than both tests and usually beats the worse one (+ in p≤ or p<, Table 3).",
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
