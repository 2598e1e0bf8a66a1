"""The "Tree instability" page: ``instability.py`` is its script, and the
modules beside it are used by it alone.

* cache.py: cached studies
* panels.py: the perturbation, refit and diff panels
* more.py: split confidence, near-tie trees, removal and the scoreboard panels
"""
