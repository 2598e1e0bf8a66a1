"""The "Your own model" page's session keys: each of its widget and state keys starts with
``model_``.

``TAB``, ``SOURCE`` and ``LIBRARY`` are also reached by the frame, by their names on the page
(``ui.navigation.PageSpec.key``: ``"tab"``, ``"source"``, ``"library"``): presenter mode opens
the tab a guide's step talks about and sets the settings it names.
"""

SOURCE = "model_source"  # radio: audit an uploaded model file, or train one here
LIBRARY = "model_library"  # the library of the model trained here (shared in links)
FILE = "model_file"  # the file uploader of a model file (never pickled, never shared)
MISSING = "model_missing"  # text: the value an XGBoost file's rows hold for a gap
TAB = "model_tab"  # the open tab
DEPLOY = "model_deploy"  # prefix of the background parity check's widgets (Stop, restart)
RUNTIME = "model_runtime"  # the runtime whose disagreements the Deploy tab lists
EXPORT = "model_export"  # the test of the ONNX file the Deploy tab offers
