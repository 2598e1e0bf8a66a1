"""The staircase page's session keys: each of its widget and state keys starts with ``stair_``.

``TAB`` is also reached by the frame, by its name on the page (``ui.navigation.PageSpec.key``):
presenter mode opens the tab a guide's step talks about.
"""

TAB = "stair_tab"  # the open tab
CURVES = "stair_curves"  # the settings whose complexity curves were asked for
