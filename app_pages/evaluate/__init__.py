"""The "Evaluate and tune" page: ``evaluate.py`` is its script, and the
modules beside it are used by it alone.

* keys.py: the page's session keys (``eval_``)
* cache.py: cached fits, grid searches and Table 4.1
* context.py: the settings, split and tree shown that the panels share (``EvaluateContext``)
* settings.py: the settings box's widgets (the split, the decision metric, the tree shown)
* summary.py: the tree's parameters, the headline, the tree and the report
* tabs.py: the test split, importances and forest tabs
* search.py: the grid search: reading the grid, its widgets, the run and the search shown
* table_41.py: the Table 4.1 tab, source 004's four trees grown to purity
"""
