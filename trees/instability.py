"""How much a tree moves under small changes of its data, and what steadies it.

Refits under perturbations (as independent seeded tasks), distances and agreement
between refits, the confidence of each node's split, the near-tie trees (a Rashomon
set), cutpoints at every node, the effect of the tie-break, and the scoreboard of
remedies.

Public API
----------
perturbation_study, PerturbationStudy, PERTURBATIONS, perturb_data, perturbation_refit, summarize_perturbations
    Refits under perturbations of the rows, and their summary.
compare_trees, tree_distance, refit_without_row, prediction_spread, prediction_instability
    One refit against a reference tree.
prediction_agreement, mean_pairwise, tree_distances, partition_distance, DISTANCES, refit_map, RefitMap, tree_diff
    Refits compared with each other: agreement, distances, a map, node-by-node diffs.
split_confidence
    Runner-up, rows to flip and bootstrap win rate of every node.
near_tie_trees, near_tie_options, NearTieSet, tree_importances, alternative_paths
    The greedy trees obtained by branching on near-tied splits.
node_cutpoints, cutpoint_summary
    The feature and threshold of every refit at every node of the top levels.
stability_scoreboard, scoreboard_models, pruning_strength, Scoreboard, Learner
    Which remedy buys how much stability, on the same refits.
tie_break_study, TieBreakStudy
    How much the tie-break between equally good features alone moves a tree.
"""

from .studies._agreement import (
    DISTANCES,
    RefitMap,
    mean_pairwise,
    partition_distance,
    prediction_agreement,
    refit_map,
    tree_diff,
    tree_distances,
)
from .studies._confidence import split_confidence
from .studies._cutpoints import cutpoint_summary, node_cutpoints
from .studies._instability import (
    PERTURBATIONS,
    PerturbationStudy,
    compare_trees,
    perturb_data,
    perturbation_refit,
    perturbation_study,
    prediction_instability,
    prediction_spread,
    refit_without_row,
    summarize_perturbations,
    tree_distance,
)
from .studies._rashomon import (
    NearTieSet,
    alternative_paths,
    near_tie_options,
    near_tie_trees,
    tree_importances,
)
from .studies._scoreboard import (
    Learner,
    Scoreboard,
    pruning_strength,
    scoreboard_models,
    stability_scoreboard,
)
from .studies._tie_breaks import TieBreakStudy, tie_break_study

__all__ = [
    "DISTANCES",
    "Learner",
    "NearTieSet",
    "PERTURBATIONS",
    "PerturbationStudy",
    "RefitMap",
    "Scoreboard",
    "TieBreakStudy",
    "alternative_paths",
    "compare_trees",
    "cutpoint_summary",
    "mean_pairwise",
    "near_tie_options",
    "near_tie_trees",
    "node_cutpoints",
    "partition_distance",
    "perturb_data",
    "perturbation_refit",
    "perturbation_study",
    "prediction_agreement",
    "prediction_instability",
    "prediction_spread",
    "refit_map",
    "refit_without_row",
    "pruning_strength",
    "scoreboard_models",
    "split_confidence",
    "stability_scoreboard",
    "summarize_perturbations",
    "tie_break_study",
    "tree_diff",
    "tree_distance",
    "tree_distances",
    "tree_importances",
]
