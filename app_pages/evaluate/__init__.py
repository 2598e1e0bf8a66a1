"""The "Evaluate and tune" page: ``evaluate.py`` is its script, and the
modules beside it are used by it alone.

* cache.py: cached fits, grid searches and Table 4.1
* views.py: the tabs' panels, each a function of its inputs
"""
