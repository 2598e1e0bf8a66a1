"""The "Split-variable selection bias" page: ``split_bias.py`` is its script, and the
modules beside it are used by it alone.

* cache.py: the bias grid, null gains and noise roots
"""
