"""The split-selection page's session keys: each of its widget and state keys starts with
``bias_``, or with the name of the study it belongs to (``null_``, ``noise_``, ``root_``).

``TAB`` is also reached by the frame, by its name on the page (``ui.navigation.PageSpec.key``):
presenter mode opens the tab a guide's step talks about.
"""

TAB = "bias_tab"  # the open tab
GRID = "bias_grid"  # prefix of the background bias grid's widgets (its Stop, its restart)
NOISE_STUDY_PREFIX = "noise_study_"  # + rows and settings: the noise-root study (or its part)
NOISE_STUDY_BACKGROUND = "noise_roots_bg"  # prefix of the background noise study's widgets
ROOT_STUDY_PREFIX = "root_study_"  # + rows and settings: the root-choice study (or its part)
