"""The "Cultivated random forests" page: ``cultivated.py`` is its script, and the
modules beside it are used by it alone.

* keys.py: the page's session keys (``crf_``)
* cache.py: cultivated forests, references, surfaces and Table 1 scores
* settings.py: the settings box's widgets, and the rows the page fits on
* context.py: the rows, settings and fitted tree that the panels share (``CultivatedContext``)
* summary.py: the headline, the three surfaces and the report
* tabs.py: the tree, one row, abstaining (Figure 4) and AUC (Table 1) tabs
"""
