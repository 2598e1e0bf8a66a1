"""The "Data" page: ``data.py`` is its script, and the
modules beside it are used by it alone.

* facts.py: what the page says about a dataset's columns (lattice flags, summaries)
* upload_panel.py: the upload (the column to predict, what becomes of each column, files too large)
"""
