"""The "Your own model" page: ``your_model.py`` is its script, and the modules beside it
are used by it alone.

A practitioner opens the tree model they ship (scikit-learn, XGBoost, LightGBM or CatBoost,
from the library's own file format) or trains one here on the current dataset, and sees
whether reading its thresholds with the other test (``x <= t`` or ``x < t``) changes its
predictions: on which rows, where in the trees, by how much, and what to ship instead
(source 000, sections 3.1 and 3.3; the work is done by :mod:`trees.interop`).

* keys.py: the page's session keys (``model_``)
* sources.py: where the model comes from (an upload, or a model trained here)
* rows.py: which rows it is audited on (as loaded, or gap-filled where its library refuses gaps)
* cache.py: the model loaded or trained, its audit and its threshold probes, cached
* words.py: the page's sentences, tables and snippet, without Streamlit (unit-tested)
* views.py: the headline and the tabs, each a function of the audit
* tab_parts.py: the tabs, a part their widgets rerun alone
* deploy.py, deploy_words.py: the Deploy tab (each serving runtime against the library,
  ``trees.interop.parity_report``, and the fixed ONNX file, ``export_onnx``) and its words
"""
