"""The lecture paths of presenter mode: one story told across pages, a question at every step.

Each step opens its page with the data, tab and settings it talks about (its ``Step``,
set up by ``ui.presenter``), asks the class a question with a few answers to choose from,
and reveals the answer with the class's count of each choice (``ui.lecture``). Written from
the sources (docs/SOURCES.md): source 000's story from one loan applicant to its Table 2,
and the instability story from one refit to the scoreboard of remedies (sources 001-002).
"""

from dataclasses import dataclass

from .guides import BADGES, HEADLINE, PATH, Step

__all__ = ["LECTURES", "Lecture", "LectureStep"]


@dataclass(frozen=True)
class LectureStep:
    """One step of a lecture: the page it opens, what it shows and asks, the answers offered."""

    page: str  # a ``ui.navigation`` url path
    step: Step
    choices: tuple  # the answers the class can give, in the order shown


@dataclass(frozen=True)
class Lecture:
    title: str
    steps: tuple


CONDITIONING = Lecture(
    "The conditioning bias, from one applicant to Table 2 (source 000)",
    (
        LectureStep(
            "home",
            Step(
                "One applicant, two libraries",
                "The two drawings: one tree, tested with `x ≤ t` (scikit-learn) and `x < t` (R's `tree`).",
                "The applicant has 3 dependents, exactly the threshold. Does she pay back?",
                "Under `≤` she pays back, under `<` she defaults: the same tree and the same row give "
                "opposite decisions. The test at a threshold is a choice the library made (source 000, §2.3).",
                hides=(HEADLINE, PATH),
            ),
            ("She pays back", "She defaults", "It depends on the library"),
        ),
        LectureStep(
            "conditioning",
            Step(
                "Where can the two tests differ?",
                "The picture at the top: the same tree under both tests, and where they differ.",
                "For which new rows can the two tests give different predictions?",
                "Only for rows with a value exactly on a threshold: the purple lines. Anywhere else both "
                "tests send the row the same way.",
                hides=(HEADLINE,),
            ),
            ("Everywhere", "Only on the thresholds' lines", "Nowhere"),
        ),
        LectureStep(
            "conditioning",
            Step(
                "Thresholds on values new data takes",
                'The tab "Tree and mirror": the splits with a purple double border, and ρ under the tree.',
                "A threshold is a midpoint between two observed values. Can a new row ever sit exactly on it?",
                "Yes, on lattice features (counts, ages, rounded prices): with values 2 and 4 observed, the "
                "midpoint 3 is a value the next row can take. ρ counts the splits where that can happen.",
                tab="Tree and mirror",
            ),
            ("Never", "Only on lattice features", "On every feature"),
        ),
        LectureStep(
            "conditioning",
            Step(
                "The remedy: average both tests",
                'The tab "Forest, four ways": `≤`, `<`, their average in every tree, and half of the trees '
                "each way.",
                "Which prediction should a row on a threshold get?",
                "The average of both tests: 50 : 50 where the data cannot decide. For a forest it is free: "
                "let half of the trees use `<` and half `≤` (source 000, §3.3).",
                tab="Forest, four ways",
            ),
            ("The ≤ side", "The < side", "Half and half"),
        ),
        LectureStep(
            "conditioning",
            Step(
                "Does it change the scores?",
                'The tab "Does it matter?": repeated cross-validation under both tests.',
                "Over hundreds of folds, will `≤` and `<` score differently?",
                "Often significantly (p≠ = *), by up to a few tenths of a point of AUC, and the winner changes "
                "with the data. The average is never significantly worse than both (Table 3).",
                tab="Does it matter?",
            ),
            ("Never", "Sometimes, significantly", "Always by a lot"),
        ),
        LectureStep(
            "conditioning",
            Step(
                "Table 2: 40 datasets",
                'The tab "Tables 2 and 3": ρ and ρ_k, the share of splits on observed values, per dataset.',
                "On the paper's 40 datasets, how common are splits on observed values?",
                "Common: they appear on most datasets, for trees and forests alike, fitted on all the data (ρ) "
                "or on 80% of it (ρ_k). The bias is a property of real data, not of a toy (§4.5).",
                tab="Tables 2 and 3",
            ),
            ("Rare", "Common", "Only in forests"),
        ),
    ),
)

INSTABILITY = Lecture(
    "Tree instability, from one refit to the scoreboard (sources 001-002)",
    (
        LectureStep(
            "instability",
            Step(
                "Fragile splits",
                "The tree at the top: every box is a split the tree committed to.",
                "How many training rows must go before the root changes?",
                "For a red badge one or two: another feature scores almost as well, and the greedy learner "
                "commits to one (variable uncertainty, source 002, §2).",
                hides=(HEADLINE, BADGES),
                tab="Fragile splits",
            ),
            ("One or two", "About a tenth of them", "Most of them"),
        ),
        LectureStep(
            "instability",
            Step(
                "One row removed",
                'The tab "One row removed": the tree refitted without one training row.',
                "If we remove a single row, can the whole tree change?",
                "Yes: when the root changes, every split below it is chosen again on other rows, so a tiny "
                "change of the data can give a different tree.",
                tab="One row removed",
            ),
            ("No, never", "Only one leaf", "Yes, the whole tree"),
        ),
        LectureStep(
            "instability",
            Step(
                "Refits compared",
                'The tab "Refits compared": the map of the refits, coloured by their root feature.',
                "Are the refits one cloud or several?",
                "Often several families, one per root feature: the top split decides the rest (source 002, §2).",
                tab="Refits compared",
            ),
            ("One cloud", "Several clouds"),
        ),
        LectureStep(
            "instability",
            Step(
                "Where the cuts fall",
                'The tab "Cutpoints": the threshold at each node position over the refits.',
                "The root keeps its feature in most refits. Does it keep its threshold?",
                "Not always: a wide spread of thresholds is split-point uncertainty, a flat impurity curve "
                "where a sharp cut is not justified (source 002, §2).",
                tab="Cutpoints",
            ),
            ("It stays put", "It spreads"),
        ),
        LectureStep(
            "instability",
            Step(
                "Many equally good trees",
                'The tab "Near-tie trees": every tree a greedy learner could return within 5% of the best '
                "split.",
                "How many different trees are about as good as the one we fitted?",
                "Often dozens, with almost the same held-out score, yet they disagree on some rows.",
                tab="Near-tie trees",
            ),
            ("Just one", "A handful", "Dozens"),
        ),
        LectureStep(
            "cultivated",
            Step(
                "A remedy that stays one tree",
                "The three panels at the top: a cultivated forest, CART of the same depth, a random forest.",
                "Can one tree change its prediction as smoothly as a forest?",
                "The cultivated forest does: its nodes keep every near-best threshold and feature and send a "
                "row partly left and partly right (source 002, eq. 2), yet it stays one tree you can read. "
                "The instability page's scoreboard compares it with CART, p-value selection (source 001) "
                "and a random forest.",
                hides=(HEADLINE,),
            ),
            ("No", "Yes"),
        ),
    ),
)

LECTURES = {lecture.title: lecture for lecture in (CONDITIONING, INSTABILITY)}
