"""The "Data" page: ``data.py`` is its script, and the
modules beside it are used by it alone.

* keys.py: the page's session keys (``data_``, and ``prep_`` for its preprocessing widgets)
* preprocessing.py: the preprocessing widgets, which follow the settings in force
* uploader.py: the file uploader, which lets go of a file once it is in use
* facts.py: what the page says about a dataset's columns (lattice flags, summaries)
* pair.py: the "Two features" tab, a part its widgets rerun alone
* upload_panel.py: the upload (the column to predict, what becomes of each column, files too large)
"""
