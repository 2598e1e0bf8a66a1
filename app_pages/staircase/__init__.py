"""The "Staircase and depth" page: ``staircase.py`` is its script, and the
modules beside it are used by it alone.

* keys.py: the page's session keys (``stair_``)
* cache.py: the staircase example, its tree, the logistic fit and the complexity curves
* parts.py: the picture with its settings, and the tabs: each a part its widgets rerun alone
"""
