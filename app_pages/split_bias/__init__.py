"""The "Split-variable selection bias" page: ``split_bias.py`` is its script, and the
modules beside it are used by it alone.

* keys.py: the page's session keys (``bias_``; ``null_``, ``noise_``, ``root_`` for its studies)
* cache.py: the bias grid, null gains, noise roots and the roots of the user's columns
* parts.py: the experiment (settings, picture, headline) and the tabs, a part rerun alone
* tabs.py: the page's four tabs
* root_choice.py: the "On your data" tab's root-choice study (settings, run, figure, verdict)
"""
