"""The "The conditioning bias" page: ``conditioning.py`` is its script, and the
modules beside it are used by it alone.

* keys.py: the page's session keys (``cond_``)
* settings.py: the page's settings and their URL form
* cache.py: cached fits and summaries
* runs.py: the saved Tables 2 and 3 runs
* report.py: the words of the page's findings
* tab_parts.py: the tabs, a part their widgets rerun alone
"""
