"""Models of other libraries under both threshold tests (issue 31): import, audit, remedy.

Design notes
------------
Source 000 (section 3) aims at "practical solutions that are applicable to
the popular decision tree implementations", and section 3.1 gives three ways
to predict with the operator a library does not use. The libraries
practitioners ship disagree on that operator: scikit-learn and LightGBM send
``x <= t`` left, XGBoost ``x < t``; scikit-learn, XGBoost and CatBoost compare
in float32, LightGBM and scikit-learn's histogram boosting in float64.

* **Import** (:func:`from_model`): each library has an adapter module
  (``_sklearn``, ``_xgboost``, ``_lightgbm``, ``_catboost``) that reads the
  library's own dump format into one common representation,
  :class:`ImportedModel` (``_model``): a list of :class:`trees.tree.Tree`,
  their weights and outputs, the base score, the link, the native operator
  and precision, and per node the default direction of missing values.
  ``_registry.ADAPTERS`` maps model types to adapters. The adapters never
  need the library when given its document, so uploaded files are read
  without handing them to a library's parser (``_files``).
* **Traversal** (``_predict``): one compiled walk takes, per tree, the test
  (``<`` or ``<=``), honours the missing-value rules of each library, and
  rounds rows to the model's precision first. Its first way of section 3.1.
* **Audit** (``_audit``): rho and the lattice features, rows on thresholds,
  predictions that change between the operators and the precisions, and
  section 3.3's "average" and "half" remedies.
* **Probes** (``_probes``): rows on every threshold and one ulp either
  side, and a parity check of two predictors on them.
* **Remedy** (``_remedy``): :class:`ConditionedModel`, a scikit-learn
  compatible wrapper, and the mirrored model (section 3.1's second way) in
  the library's own format, to be fed ``-X``.
* **Files** (``_files``): the safe loader (no pickle; skops with an
  allow-list for scikit-learn), with size and count limits (``_build``).

The third-party libraries are imported lazily, inside the functions that
need them: ``import trees`` never imports them.

Public API
----------
from_model(model) -> ImportedModel
ImportedModel.predict / predict_proba / decision_function / raw_predict (conditioning=...)
audit_conditioning(model, X) -> ConditioningAudit
threshold_probes(model, X=None) -> DataFrame
parity_check(predict_a, predict_b, probes) -> ParityReport
ConditionedModel(model, conditioning="average")
mirrored_model(model) -> a model of the same library to be fed -X
load_model_file(name, data) -> ImportedModel or fitted model
train_demo_model(library, X, y, task, random_state)
remedy_snippet(model_file, data_file, ...) -> str
ModelFileError
"""

from ._audit import ConditioningAudit, audit_conditioning
from ._build import LIMITS, ModelFileError
from ._demo import DEMO_LIBRARIES, remedy_snippet, train_demo_model
from ._files import SKOPS_ALLOWED, load_model_file
from ._model import CONDITIONINGS, ImportedModel
from ._probes import PROBE_COLUMNS, ParityReport, parity_check, threshold_probes
from ._registry import ADAPTERS, from_model
from ._remedy import ConditionedModel, mirrored_model

__all__ = [
    "ADAPTERS",
    "CONDITIONINGS",
    "DEMO_LIBRARIES",
    "ConditionedModel",
    "ConditioningAudit",
    "LIMITS",
    "ImportedModel",
    "ModelFileError",
    "PROBE_COLUMNS",
    "ParityReport",
    "SKOPS_ALLOWED",
    "audit_conditioning",
    "from_model",
    "load_model_file",
    "mirrored_model",
    "parity_check",
    "remedy_snippet",
    "threshold_probes",
    "train_demo_model",
]
