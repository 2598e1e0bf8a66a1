"""The instability page's session keys: each of its widget and state keys starts with ``inst_``.

``TAB`` is also reached by the frame, by its name on the page (``ui.navigation.PageSpec.key``):
presenter mode opens the tab a guide's step talks about.
"""

TAB = "inst_tab"  # the open tab
EPS = "inst_eps"  # the near-tie tolerance (a shared slider, also read for the report)
MAX_TREES = "inst_max_trees"  # the most near-tie trees (likewise)
SEEDS = "inst_seeds"  # seeds of the random feature order (likewise)
BOARD = "inst_board"  # the stability scoreboard's run (or, after Stop, what builds it)
BOARD_SETTINGS = "inst_board_settings"  # the settings that run was made with
JUDGING = "inst_judging"  # prefix of the background split judging's widgets (Stop, restart)
NEAR_TIES = "inst_near_ties"  # prefix of the background near-tie trees' widgets
TIE_BREAKS = "inst_tie_breaks"  # prefix of the background tie-break refits' widgets
REFITS = "inst_refits"  # prefix of the background refits' widgets
REMOVALS = "inst_removals"  # prefix of the background search of rows to remove one by one
