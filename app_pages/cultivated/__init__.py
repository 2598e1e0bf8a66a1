"""The "Cultivated random forests" page: ``cultivated.py`` is its script, and the
modules beside it are used by it alone.

* cache.py: cultivated forests, references, surfaces and Table 1 scores
"""
