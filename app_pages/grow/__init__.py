"""The "Grow a tree step by step" page: ``grow.py`` is its script, and the
modules beside it are used by it alone.

* keys.py: the page's session keys (``grow_``)
* grower_state.py: the session's grower, its undo and its URL form
* history.py: a grown tree's splits as text (shared in links)
* cache.py: cached scores, importances and confidence
* grown.py: the grown tree and its tabs, a part its widgets rerun alone
* panels.py: settings, action bar, tree, scores, regions and path panels
* node.py: the selected node's panel
* save_load.py: save, load and reproduce a grown tree
"""
