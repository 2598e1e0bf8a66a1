"""The evaluate page's session keys: each of its widget and state keys starts with ``eval_``.

``TAB`` is also reached by the frame, by its name on the page (``ui.navigation.PageSpec.key``):
presenter mode opens the tab a guide's step talks about.
"""

TAB = "eval_tab"  # the open tab
SEARCH_PREFIX = "eval_search_"  # + dataset and split digest: the page's last grid search
TABLE41_PREFIX = "eval_table41_"  # + dataset and rows digest: Table 4.1's trees grown so far
SHOWN = "eval_shown"  # the radio: the tree grown to purity or the search's best
SHOW_BEST = "eval_show_best"  # a search just ended: the next run shows its best tree
FOREST_TREES = "eval_forest_trees"  # the forest tab's number of trees (read by the test split too)
FORESTS = "eval_forests"  # signatures of the forests asked for in this session
CRITERIA = "eval_criteria"  # the search's decision metrics (re-validated when the task changes)
RUN = "eval_run"  # the Search button (a background run, or a run in the page)
RUNS = "eval_runs"  # the saved-run panel's widgets (ui.runs)
