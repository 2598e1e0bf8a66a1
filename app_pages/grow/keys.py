"""The grow page's session keys: each of its widget and state keys starts with ``grow_``.

``TAB`` and ``SELECTION`` are also reached by the frame, by their names on the page
(``ui.navigation.PageSpec.key``: ``"tab"``, ``"selection"``): presenter mode opens the tab a
guide's step talks about and sets the settings it names.
"""

GROWER = "grow_grower"
SIGNATURE = "grow_signature"  # (dataset key, GrowSettings) the grower was built for
SPLIT = "grow_split"
TREE = "grow_tree"  # the grown tree's splits as text (app_pages.grow.history), shared in the URL
NODE = "grow_node"  # the node selected in the tree view, shared in the URL
TAB = "grow_tab"  # the open tab
MESSAGE = "grow_message"
LOADED = "grow_loaded"
SELECTION = "grow_selection"  # the radio: splits chosen by impurity or by p-value (source 001)
