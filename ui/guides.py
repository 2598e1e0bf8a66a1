"""The guided sequences of presenter mode: for each page, what to show, what to ask, what to reveal.

Written from the source papers (docs/SOURCES.md). Each page's steps follow
its own layout: the first step is the page's key picture. A step that speaks of
one dataset, tab or setting names it (``dataset``, ``tab``, ``settings``), and
``ui.presenter`` sets the page up for it; a step without them speaks of whatever
data is in front of the class.

The question comes before the answer: a step names the parts of its page that
answer it (``hides``, from ``PARTS``), and the page holds them back until the
teacher presses Reveal (``ui.presenter.held_back``).
"""

from dataclasses import dataclass

__all__ = [
    "BADGES",
    "CANDIDATES",
    "CHANGES",
    "GUIDES",
    "HEADLINE",
    "PARTS",
    "PATH",
    "REGIONS",
    "Step",
]

MUSHROOM = "secondary-mushroom"  # source 004's data

# The parts of a page that can answer a step's question, held back until Reveal.
HEADLINE = "headline"  # the sentence under the title, with the page's numbers (its figures too)
# A row's paths and leaves under both tests, their verdicts and its predictions: the home page's
# applicant, and the conditioning page's worked example (where the paths part too)
PATH = "path"
REGIONS = "regions"  # the staircase's regions of the tree (the points and the line stay)
BADGES = "badges"  # how firm each split is: the tree's badges and their count
CHANGES = "changes"  # the model page's rows that change: their count, table and file
# A leaf's best split on the Grow page: its score curve (whose peak is the best threshold), the
# best candidate marked on the rows' picture, the near-ties and the table ranking each feature's
# best split (the rows themselves stay, to guess from)
CANDIDATES = "candidates"
PARTS = (HEADLINE, PATH, REGIONS, BADGES, CHANGES, CANDIDATES)


@dataclass(frozen=True)
class Step:
    """One step of a guided sequence."""

    title: str
    show: str
    ask: str
    reveal: str
    dataset: str | None = None  # the bundled dataset the step speaks of
    tab: str | None = None  # the page's tab it shows (a label of the page's ``share.tabs``)
    # (name, value) pairs it needs: shared widgets of its page, each named by the rest of its key
    # after the page's prefix (``ui.navigation.PageSpec.key``: "selection" is "grow_selection").
    settings: tuple = ()
    hides: tuple = ()  # the page's PARTS that answer the question, held back until Reveal


GUIDES = {
    "home": [
        Step(
            "One tree, two tests",
            "The two drawings at the top: the same tree, once testing `x <= t` and once `x < t`.",
            "She has 3 dependents, exactly the threshold: which leaf does each tree send her to?",
            "Under `<=` the applicant goes left and pays back; under `<` right and defaults. Same data, same "
            "tree, opposite decisions: the threshold test is a hidden modelling choice (source 000, §2.3).",
            hides=(HEADLINE, PATH),
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
            hides=(HEADLINE,),
        ),
        Step(
            "Count the fragile splits",
            'The tab "Tree and mirror": the splits with a purple double border, and ρ under the tree.',
            "If ρ is 0.2, how many of the tree's questions depend on a choice the library made for you?",
            "One in five. Switch the view to the mirror 𝓜[T]: children swapped, thresholds negated. "
            "T(x, <) = 𝓜[T](−x, ≤) exactly, so a library that only tests `≤` can still predict with `<` (§3.1).",
            tab="Tree and mirror",
        ),
        Step(
            "The paper's loan applicant",
            'The tab "Worked example": the six records of Appendix A and the applicant with 3 dependents.',
            "The tree was grown on applicants with 2 and 4 dependents. Where should one with 3 go?",
            "Nobody knows: under `≤` she pays back, under `<` she defaults. The paths part at "
            "dependents ≤ 3, and the average gives 50 : 50, the honest answer (Figures 1 and 3).",
            tab="Worked example",
            hides=(PATH,),
        ),
        Step(
            "A free remedy for forests",
            'The tab "Forest, four ways": `≤`, `<`, both tests in every tree, and half of the trees each way.',
            "Averaging both tests doubles a tree's work. What does it cost a forest of 100 trees?",
            "Nothing: let 50 trees use `<` and 50 use `≤` (*half*, §3.3). The last panel shows half and "
            "average differ only faintly.",
            tab="Forest, four ways",
        ),
        Step(
            "Does it matter?",
            'The tab "Does it matter?": run the experiment, then "Tables 2 and 3" for the paper\'s datasets.',
            "Over hundreds of folds, will the two tests score differently, and which one wins?",
            "Often significantly (p≠ = *), and the winner changes with the data. The bias-free variant is never "
            "significantly worse than both tests and usually beats the worse one (+ in p≤ or p<, Table 3).",
            tab="Does it matter?",
        ),
    ],
    "grow": [
        Step(
            "One leaf, every candidate",
            "The single box at the top and, under it, the root's rows along a feature (pick others "
            "with 'Feature shown'); Reveal adds the score curve and the table of each feature's "
            "best split.",
            "Before we split: which feature would you ask about first, and where would you cut it?",
            "The learner scores every midpoint between two observed values of every feature and keeps "
            "the largest impurity decrease (source 004, §3.4.2: every feature, every midpoint). The "
            "peak of the score curve is that threshold; the table ranks the features by their best.",
            hides=(CANDIDATES,),
            tab="Selected node",
        ),
        Step(
            "How sure is that choice?",
            "Press Step once. Look at the orange near-ties on the score curve: the runner-ups.",
            "If the runner-up scores 97% of the winner, how many rows would it take to change the root?",
            "Often one or two: the badge says how many training rows must go before another feature "
            "wins. A flat curve is split-point uncertainty, a close runner-up variable uncertainty "
            "(source 002, §2); the Tree instability page shows what that does to the whole tree.",
            hides=(BADGES,),
            tab="Selected node",
        ),
        Step(
            "Which leaf next?",
            "Settings → growth order. Compare 'best gain first' with 'level by level (a queue)', "
            "pressing Step a few times with each (Reset between).",
            "Does the order change the final tree, or only the order in which it appears?",
            "Grown to the end, both give the same tree; stopped early by a leaf limit, they differ. "
            "Source 004's learner keeps a queue of leaves and grows the tree level by level from "
            "left to right; best-first spends a limited budget of leaves where the gain is largest.",
            tab="Selected node",
        ),
        Step(
            "When to stop",
            "Press Grow all, then open Scores and importances: training and held-out accuracy after "
            "each split.",
            "Training accuracy keeps rising. Where would you have stopped, and why?",
            "Where the held-out curve peaks: the splits after it fit the training rows, not new ones. "
            "Stopping rules end growth early (maximum depth, leaves or nodes for the tree; minimum "
            "rows and zero impurity for a node, source 004, §3.4.1); tuning picks them (Evaluate).",
            tab="Scores and importances",
        ),
        Step(
            "Split it yourself",
            "Undo back to a leaf; under 'Feature shown' pick a feature that is not the best, and "
            "click the peak of its score curve.",
            "What happens to the badge and to the held-out score when we overrule the learner?",
            "The split is made where you clicked; its badge reads 'beaten' (another feature scores "
            "higher at this node), and the held-out score shows whether the greedy choice was "
            "better on new rows.",
            tab="Selected node",
        ),
        Step(
            "A fairer choice of feature",
            "Settings → split variable chosen by the smallest p-value; Reset and Step.",
            "Gini prefers features with many values even when they carry no information. Does the "
            "root change here?",
            "Choosing the smallest p-value of each feature's best split removes that preference "
            "(source 001, §4: the p-value of any criterion is nearly unbiased), at the cost of "
            "permutation tests at every node.",
            tab="Selected node",
            settings=(("selection", "p_value"),),
        ),
    ],
    "instability": [
        Step(
            "Fragile splits",
            "The tree at the top: every box is a split the tree committed to.",
            "Which of these splits would you trust least, and what would it take to change it?",
            "A red badge changes if one or two training rows go, or wins under half the bootstrap "
            "samples. At every node the tree makes an all-in choice even when another variable is "
            "almost as good: variable uncertainty (source 002, §2).",
            hides=(HEADLINE, BADGES),
            tab="Fragile splits",
        ),
        Step(
            "Many equally good trees",
            "The Near-tie trees tab: how many trees, their scores, and the sunburst of where they part.",
            "If every split within 5% of the best were taken instead, how many different trees could "
            "a greedy learner have returned? Do they predict alike?",
            "Often dozens, with almost the same held-out score, yet they disagree on some rows (the "
            "ambiguity): the option trees source 002 builds its option modules from (§2-3).",
            tab="Near-tie trees",
        ),
        Step(
            "Refit and compare",
            "The Refits compared tab: the map of the refits, coloured by their root feature.",
            "Are the refits one cloud or several? What separates the clouds?",
            "Clouds are families of trees with different roots: a small change of the data flips the "
            "top split and, through the recursive structure, every decision below it (source 002, "
            "§2). The star is the most typical tree; compare it with the farthest one below the map.",
            tab="Refits compared",
        ),
        Step(
            "Where the cuts fall",
            "The Cutpoints tab: the feature and the thresholds at each node position over the refits.",
            "The root keeps its feature in most refits. Does it keep its threshold?",
            "A wide spread of thresholds is split-point uncertainty: a flat impurity surface, where "
            "a sharp cut is not justified (source 002, §2). Robust split modules average over it.",
            tab="Cutpoints",
        ),
        Step(
            "Not even the data changed",
            "The Tie-break tab: the same rows, only the order in which tied features are tried.",
            "Can a tree change when nothing about the data changes?",
            "Yes, wherever two features tie exactly: the lowest-index rule and scikit-learn's random "
            "order can grow different trees from the same rows.",
            tab="Tie-break",
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
            hides=(HEADLINE,),
        ),
        Step(
            "Correct the criterion, not the data",
            "The right heatmap: the Gamma-corrected Gini.",
            "What could make a criterion fair whatever the number of values?",
            "Compare p-values instead of gains: the chance of a gain this large if the feature were useless. "
            "Dobra and Gehrke prove p-values are nearly unbiased and give the Gini gain's null moments exactly "
            "(eqs. 19-21).",
            hides=(HEADLINE,),
        ),
        Step(
            "Every criterion",
            'The tab "All six criteria".',
            "Which criteria are gains and which are p-values? Which of them are fair?",
            "Gini gain, information gain and gain ratio lean to many values; the chi-square, G-square and "
            "corrected Gini p-values are nearly fair, except near p₁ N = 1, where all tests lean to few values.",
            tab="All six criteria",
        ),
        Step(
            "On your data",
            'The tab "On your data": noise columns added to the current dataset.',
            "Would a tree ever put pure noise at its root?",
            "With the Gini gain it can, when the real features are weak; with p-value selection it rarely does.",
            tab="On your data",
        ),
    ],
    "staircase": [
        Step(
            "A diagonal boundary",
            "The picture: two classes split by an oblique line (dashed); after Reveal, the tree's regions.",
            "A tree asks one question about one feature at each node. How can it draw a diagonal?",
            "Only as a staircase of axis-parallel steps; each step costs a split, so an oblique boundary needs a "
            "deep tree where one linear cut would do (source 003, the staircase effect).",
            hides=(HEADLINE, REGIONS),
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
            tab="Regression: steps, and no extrapolation",
        ),
        Step(
            "How deep to grow",
            'The tab "How deep to grow?": cross-validated error against the maximum depth and the minimum rows '
            "per leaf, with the linear baseline.",
            "Where is the test error lowest, and why does it rise again?",
            "Around depth 3 on the toy data: shallower trees are too coarse (bias), deeper ones fit noise "
            "(variance). On data with an oblique boundary the linear model may beat every tree.",
            tab="How deep to grow?",
        ),
    ],
    "data": [
        Step(
            "What are we predicting?",
            "The sentence under the dataset's name and the class balance beside the features.",
            "On the Secondary Mushroom data 55% of the mushrooms are poisonous. How accurate is a model that "
            "always says 'poisonous'?",
            "55%: every model must beat the largest class's share before it has learned anything. The shares "
            "are on the bars.",
            dataset=MUSHROOM,
            hides=(HEADLINE,),
        ),
        Step(
            "Gaps everywhere",
            "The features table: its 'missing' column.",
            "Every mushroom row has at least one missing value (source 004, §2.2). Should we drop the "
            "incomplete rows?",
            "Nothing would be left. The report drops the features with many missing values instead "
            "(20% or more in its code; its text says 40%), and fills the gaps of the others: deletion and imputation mixed.",
            dataset=MUSHROOM,
        ),
        Step(
            "How to fill a gap",
            "The tab Preprocessing: the two fill rules, then the record at the bottom.",
            "A missing cap surface: fill it with the most frequent surface, or with a new category "
            "'u' (unknown)?",
            "The most frequent value pretends to know and merges the unknown rows into it; a new category keeps "
            "them apart, and a tree can even split on 'unknown'. That is source 004's rule; numbers get the "
            "median, a typical value that outliers do not move.",
            dataset=MUSHROOM,
            tab="Preprocessing",
        ),
        Step(
            "Lattice features",
            "The lattice column of the features table.",
            "cap-diameter has thousands of distinct values. Why is it flagged as a lattice feature?",
            "It is recorded to two decimals: its values are evenly spaced, so a midpoint threshold can fall on "
            "a value new data takes, where `<=` and `<` disagree (source 000, §4.1).",
            dataset=MUSHROOM,
        ),
    ],
    "evaluate": [
        Step(
            "Grown to purity",
            "The tree under the title, grown until its leaves are pure.",
            "This tree makes (almost) no mistake on the rows it was grown on. How will it do on mushrooms "
            "it has never seen?",
            "Read the test error now shown at the top: small on the mushrooms, but not 0. A training error of 0 "
            "says nothing for a tree grown to purity; only held-out rows say how it generalises (source 004, "
            "§4.3.1).",
            dataset=MUSHROOM,
            hides=(HEADLINE,),
        ),
        Step(
            "Which mistakes?",
            "The tab Test split: the confusion matrix, one row per true class.",
            "Calling a poisonous mushroom edible, or an edible one poisonous: which cell matters more here?",
            "The top-right and bottom-left cells are the two errors; with mushrooms one of them is far costlier, "
            "which a single error rate hides.",
            dataset=MUSHROOM,
            tab="Test split",
        ),
        Step(
            "Four metrics, four trees",
            "The tab Table 4.1: the report's trees beside ours (press its button).",
            "Entropy, Gini, chi-square, misclassification: do they grow the same tree?",
            "Different sizes, similar test errors, except misclassification: its gain is often exactly 0, so "
            "how zero-gain splits are treated decides the tree (§4.1-4.2).",
            dataset=MUSHROOM,
            tab="Table 4.1",
        ),
        Step(
            "Choosing the stopping rules",
            "The tab Search, then the best settings table.",
            "Why not pick the depth with the lowest test error?",
            "Then the test error would no longer be an honest estimate. The search scores settings on the "
            "training rows only (k-fold or holdout), and nested cross-validation estimates the error of the "
            "whole procedure (§4.3.2-4.3.3).",
            tab="Search",
        ),
        Step(
            "Many trees",
            "The tab Forest.",
            "Can trees grown on bootstrap samples, voting together, beat the best single tree?",
            "On the mushrooms the forest is almost perfect (§5); its out-of-bag error estimates the test error "
            "without using the test rows.",
            dataset=MUSHROOM,
            tab="Forest",
        ),
    ],
    "cultivated": [
        Step(
            "Hard and soft boundaries",
            "The three panels at the top: the cultivated forest, CART of the same depth, a random forest.",
            "Where does a small move of one feature flip CART's prediction? And the others'?",
            "CART jumps at its thresholds; the cultivated forest and the random forest change gradually near the "
            "boundary (source 002, Figure 3), yet the cultivated forest is a single tree.",
            hides=(HEADLINE,),
        ),
        Step(
            "A node that hesitates",
            "The tab The cultivated tree: a robust split module's bars.",
            "If the best threshold is 0.30 but 0.25 is almost as good, why commit to one?",
            "A robust split module keeps every threshold within k rows of the best, weighted by φ; a row near "
            "the boundary goes left with the share ψ and right with 1 − ψ (eq. 2).",
            tab="The cultivated tree",
        ),
        Step(
            "Several features at once",
            "An option module in the tree (CRF-full or CRF-option).",
            "Two features split almost equally well at a node. Which one should the tree ask about?",
            "Both: an option module averages their decisions. Its tolerance η_l = η₀ / s_l³ shrinks with depth, "
            "so options are many near the root and rare below (section 3).",
            tab="The cultivated tree",
        ),
        Step(
            "How sure is one prediction?",
            "The tab One row: the leaves the row reaches and its spread.",
            "This row ends up in several leaves that disagree. Should we trust its prediction?",
            "Its spread, the variance of the leaf values weighted by the fractions, says how reliable the "
            "prediction is: near 0 the modules agree, large when they conflict (section 3, Predictions).",
            tab="One row",
        ),
        Step(
            "Knowing when not to answer",
            "The tab Abstaining (Figure 4).",
            "What happens to accuracy if the model may refuse the least reliable 40% of the rows?",
            "The predictions kept are more accurate: about 8 points on Diabetes and Parkinsons in the paper. The "
            "refused rows go to an expert or a new measurement.",
            tab="Abstaining (Figure 4)",
        ),
        Step(
            "As good as a forest?",
            "The tab AUC (Table 1), after pressing its button.",
            "Which should win: one cultivated tree or 200 random trees?",
            "In the paper CRF-full is within 0.01 AUC of the random forest on 16 of 22 datasets and beats CART "
            "on all of them, while staying one tree you can read.",
            tab="AUC (Table 1)",
        ),
    ],
    "your_model": [
        Step(
            "Four libraries, two tests",
            "The sentence at the top, with XGBoost chosen under The model, on the current dataset.",
            "XGBoost sends a row left when `x < t`, scikit-learn when `x ≤ t`. If a converter or a port "
            "reads the XGBoost model with the other test, how many rows should change?",
            "Only rows whose value equals a threshold on their path; XGBoost places thresholds on values "
            "of the data, so on counts and rounded values there can be many (source 000, §2.3). Switch to "
            "LightGBM or CatBoost: their thresholds lie between values, and nothing changes.",
            settings=(("source", "train"), ("library", "xgboost")),
            hides=(HEADLINE, CHANGES),
        ),
        Step(
            "Where it happens",
            'The tab "Where in the trees": the purple bars.',
            "Which features carry the splits that sit on an observed value?",
            "Lattice features, whose values repeat (ages, counts, codes). The table lists each node "
            "rows sit on, with the threshold they equal.",
            tab="Where in the trees",
        ),
        Step(
            "What to ship",
            'The tab "The remedy".',
            "Retrain with the other test, or change how the model predicts?",
            "Neither retraining nor a new library is needed: average both tests (ConditionedModel), or "
            "keep the library and feed the mirrored model −x (§3.1, §3.3). The probe rows test any port.",
            tab="The remedy",
        ),
    ],
}
