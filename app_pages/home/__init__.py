"""The "Home" page: ``home.py`` is its script, and the
modules beside it are used by it alone."""
