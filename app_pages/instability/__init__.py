"""The "Tree instability" page: ``instability.py`` is its script, and the
modules beside it are used by it alone.

* keys.py: the page's session keys (``inst_``)
* controls.py: the page's settings (the tree, the perturbation, the refits) and its snippet
* cache.py: the cached studies
* splits.py: how firm the reference tree's splits are (fragile splits, near-tie trees, the
  tie-break, cutpoints)
* refits.py: refitted trees compared with each other, and the tree refitted without one row
* tab_parts.py: the tabs, a part their widgets rerun alone
* scoreboard.py: the stability scoreboard, the page's one long run
"""
