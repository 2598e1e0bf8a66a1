"""The cultivated-forest page's session keys: each of its widget and state keys starts with
``crf_``.

``TAB`` is also reached by the frame, by its name on the page (``ui.navigation.PageSpec.key``):
presenter mode opens the tab a guide's step talks about.
"""

AUC_PREFIX = "crf_auc_"  # + rows and folds: Table 1's scores so far
TAB = "crf_tab"  # the open tab
ROW = "crf_row"  # the row shown in "One row" (a shared widget)
OOF_ASKED = "crf_oof_asked"  # the out-of-fold runs asked for (large data waits for a button)
