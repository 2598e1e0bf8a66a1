"""The conditioning page's session keys: each of its widget and state keys starts with ``cond_``.

``TAB`` is also reached by the frame, by its name on the page (``ui.navigation.PageSpec.key``):
presenter mode opens the tab a guide's step talks about.
"""

# The dataset key the page's dataset-dependent settings were last set for: when the dataset
# changes, "use the paper's setting" follows it and the axes, class and row start afresh.
DATA_SEEN = "cond_data_seen"
PAPER = "cond_paper"  # toggle: the paper's per-dataset setting (source 000, Table 1)
MIN_LEAF = "cond_min_leaf"  # the user's own rows per leaf (kept within the data's range)
TREES = "cond_trees"  # trees per forest (the paper's 100 is one click away)
FX = "cond_fx"  # the picture's horizontal feature
FY = "cond_fy"  # ... and vertical feature
CLASS = "cond_class"  # the class whose probability is drawn (more than two classes)
ROW = "cond_row"  # the held-out row of the worked example
TAB = "cond_tab"  # the open tab
FOREST_FIT = "cond_forest_fit"  # prefix of the background forest's widgets (its Stop, its restart)
FOREST_VIEW = "cond_forest_view"  # (signature, view): the last large forest, kept in the session
EXP_REPEATS = "cond_exp_repeats"
EXP_FOLDS = "cond_exp_folds"
TABLES_NAMES = "cond_tables_names"  # the datasets of the Tables 2 and 3 view
TABLES_REPEATS = "cond_tables_repeats"
TABLES_LIBRARY_SETTINGS = "cond_tables_library_settings"  # library engines: defaults or chosen
RUNS = "cond_runs"  # key of the saved-runs panel of the experiment (ui.runs)
TABLES_RUNS = "cond_tables_runs"  # ... and of the Tables 2 and 3 view
