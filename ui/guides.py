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
    "grow": [
        Step(
            "One leaf, every candidate",
            "The single box at the top and, under it, the table of each feature's best split at the "
            "root with its score curve.",
            "Before we split: which feature would you ask about first, and where would you cut it?",
            "The learner scores every midpoint between two observed values of every feature and keeps "
            "the largest impurity decrease (source 004, §3.4.2: every feature, every midpoint). The "
            "peak of the score curve is that threshold; the table ranks the features by their best.",
        ),
        Step(
            "How sure is that choice?",
            "Press Step once. Read the badge on the root and the orange near-ties on the score curve.",
            "If the runner-up scores 97% of the winner, how many rows would it take to change the root?",
            "Often one or two: the badge says how many training rows must go before another feature "
            "wins. A flat curve is split-point uncertainty, a close runner-up variable uncertainty "
            "(source 002, §2); the Tree instability page shows what that does to the whole tree.",
        ),
        Step(
            "Which leaf next?",
            "Settings → growth order. Compare 'best gain first' with 'level by level (a queue)', "
            "pressing Step a few times with each (Reset between).",
            "Does the order change the final tree, or only the order in which it appears?",
            "Grown to the end, both give the same tree; stopped early by a leaf limit, they differ. "
            "Source 004's learner keeps a queue of leaves and grows the tree level by level from "
            "left to right; best-first spends a limited budget of leaves where the gain is largest.",
        ),
        Step(
            "When to stop",
            "Press Grow all, then open Scores and importances: training and held-out accuracy after "
            "each split.",
            "Training accuracy keeps rising. Where would you have stopped, and why?",
            "Where the held-out curve peaks: the splits after it fit the training rows, not new ones. "
            "Stopping rules end growth early (maximum depth, leaves or nodes for the tree; minimum "
            "rows and zero impurity for a node, source 004, §3.4.1); tuning picks them (Evaluate).",
        ),
        Step(
            "Split it yourself",
            "Undo back to a leaf; under 'Feature shown' pick a feature that is not the best, and "
            "click the peak of its score curve.",
            "What happens to the badge and to the held-out score when we overrule the learner?",
            "The split is made where you clicked; its badge reads 'beaten' (another feature scores "
            "higher at this node), and the held-out score shows whether the greedy choice was "
            "better on new rows.",
        ),
        Step(
            "A fairer choice of feature",
            "Settings → split variable chosen by the smallest p-value; Reset and Step.",
            "Gini prefers features with many values even when they carry no information. Does the "
            "root change here?",
            "Choosing the smallest p-value of each feature's best split removes that preference "
            "(source 001, §4: the p-value of any criterion is nearly unbiased), at the cost of "
            "permutation tests at every node.",
        ),
    ],
    "instability": [
        Step(
            "Fragile splits",
            "The tree at the top and its badges: red, orange, green.",
            "Which of these splits would you trust least, and what would it take to change it?",
            "A red badge changes if one or two training rows go, or wins under half the bootstrap "
            "samples. At every node the tree makes an all-in choice even when another variable is "
            "almost as good: variable uncertainty (source 002, §2).",
        ),
        Step(
            "Many equally good trees",
            "The Near-tie trees tab: how many trees, their scores, and the sunburst of where they part.",
            "If every split within 5% of the best were taken instead, how many different trees could "
            "a greedy learner have returned? Do they predict alike?",
            "Often dozens, with almost the same held-out score, yet they disagree on some rows (the "
            "ambiguity): the option trees source 002 builds its option modules from (§2-3).",
        ),
        Step(
            "Refit and compare",
            "The Refits compared tab: the map of the refits, coloured by their root feature.",
            "Are the refits one cloud or several? What separates the clouds?",
            "Clouds are families of trees with different roots: a small change of the data flips the "
            "top split and, through the recursive structure, every decision below it (source 002, "
            "§2). The star is the most typical tree; compare it with the farthest one below the map.",
        ),
        Step(
            "Where the cuts fall",
            "The Cutpoints tab: the feature and the thresholds at each node position over the refits.",
            "The root keeps its feature in most refits. Does it keep its threshold?",
            "A wide spread of thresholds is split-point uncertainty: a flat impurity surface, where "
            "a sharp cut is not justified (source 002, §2). Robust split modules average over it.",
        ),
        Step(
            "Not even the data changed",
            "The Tie-break tab: the same rows, only the order in which tied features are tried.",
            "Can a tree change when nothing about the data changes?",
            "Yes, wherever two features tie exactly: the lowest-index rule and scikit-learn's random "
            "order can grow different trees from the same rows.",
        ),
        Step(
            "Which remedy buys stability",
            "Run the scoreboard at the bottom: CART, p-value selection, averaged thresholds, a "
            "cultivated forest and a random forest on the same refits, at the same depth.",
            "Which would you pick for a model people must be able to read, and which for accuracy?",
            "Forests agree most but are no longer one tree; p-value selection (source 001) steadies "
            "the root feature on data with uninformative many-valued features; averaged thresholds "
            "(source 000) change only rows on a threshold; the cultivated forest (source 002) keeps "
            "one tree's shape and softens its splits.",
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
