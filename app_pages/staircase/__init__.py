"""The "Staircase and depth" page: ``staircase.py`` is its script, and the
modules beside it are used by it alone.

* cache.py: the staircase example, its tree, the logistic fit and the complexity curves
"""
