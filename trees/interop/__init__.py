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
* **Rows** (``_inputs``): the one rule for reading a frame as the model
  reads it (columns matched by name, categories as the library's codes, the
  sentinel as missing), on which every prediction, the audit, the command
  line and the page rely; what it cannot read exactly it refuses
  (:class:`ModelInputError`).
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
* **Export** (``_onnx``, ``_onnx_trees``): the model as an ONNX ``TreeEnsemble`` graph
  (``ai.onnx.ml`` opset 5, float64) under the chosen test or their average, rows read as
  the library reads them, for onnxruntime and every other ONNX runtime.
* **Parity** (``_parity``, ``_runtimes``, ``_library``): probe rows and the user's rows
  through each runtime a model is deployed to (onnxruntime on the lab's export and on the
  usual converter's, treelite, m2cgen), against the library's own predict; each
  disagreement located (tree, node, threshold, side), explained and given its fix.
* **Files** (``_files``): the safe loader (no pickle; skops with an
  allow-list for scikit-learn), with every file's structure and declared
  sizes checked against named limits before anything is built (``_build``,
  ``_skops_checks``, ``_ubjson``); what a reader read in its library's own
  way (a NaN threshold) is said in ``ImportedModel.notes``.

The third-party libraries are imported lazily, inside the functions that
need them: ``import trees`` never imports them.

Public API
----------
from_model(model, missing=None) -> ImportedModel
    Any supported fitted model, library document (dict, LightGBM text) or
    FrozenEstimator; ``ADAPTERS`` maps (library, type name) to its adapter.
    ``missing``: XGBoost's sentinel, for a Booster or a file (a wrapper's is read).
ImportedModel.check_X(X) / frame_from_table(table) / with_missing_value(value)
    The rows as the model reads them; a file's table with its categorical columns
    declared; the model reading a sentinel as missing.
ImportedModel.predict / predict_proba / decision_function / raw_predict (X, conditioning=...)
    ``conditioning`` in ``CONDITIONINGS``: "native", "<=", "<", "average", "half";
    ``precision=`` overrides the library's (float32 or float64).
audit_conditioning(model, X, n_jobs=None) -> ConditioningAudit
    ``summary()``, ``headline()``, ``headline_figures()`` and the tables ``features``,
    ``trees``, ``rows``, ``flips``, ``comparisons``; a prediction changes beyond
    ``CHANGE_TOLERANCE`` of the library's output precision.
threshold_probes(model, X=None, max_probes=30_000, seed=0) -> DataFrame
    Rows on every threshold and one ulp either side (``PROBE_COLUMNS``).
parity_check(predict_a, predict_b, probes, atol=1e-6, rtol=1e-6, model=None) -> ParityReport
    The predictors get the probes as an array (with ``model``: the one its library's
    predict takes, categories as the library's codes or values).
ConditionedModel(model, conditioning="average")
    A fit-less scikit-learn estimator predicting under the chosen conditioning.
export_onnx(model, conditioning="native", input_dtype="float64") -> onnx.ModelProto
    The model as one ONNX graph under "native", "<=", "<", "average" or "half", taking
    the array the library's own predict takes.
check_export(model, onnx_model, X, conditioning="native") -> (n_rows, n_disagree)
    The exported file run in onnxruntime against the lab's walk under that conditioning.
parity_report(model, X=None, runtimes=None) -> RuntimeParityReport
    ``summary`` (a line per runtime of ``RUNTIMES``: status, disagreements by side, cause,
    fix), ``disagreements`` (``DISAGREEMENT_COLUMNS``) and ``array`` (the rows as every
    runtime got them); ``LIBRARY_NAMES`` names the libraries in words.
mirrored_model(model)
    The operator-swapped model in the library's own type (XGBoost, LightGBM,
    scikit-learn), to be fed ``-X``.
load_model_file(name, data) -> ImportedModel
    The safe loader (no pickle; skops with ``SKOPS_ALLOWED``), bounded by ``LIMITS``.
train_demo_model(library, X, y, task="binary", random_state=0)
    A small model of each of ``DEMO_LIBRARIES``, for teaching.
remedy_snippet(model_file, data_file, target=None, conditioning="average") -> str
ModelFileError
    A ValueError whose message says what is wrong with a model file and how to fix it.
LibraryNotInstalled, is_installed(module), OPTIONAL_LIBRARIES
    An ImportError saying which optional library a call needs and the one command that
    installs it (CatBoost is not in the app's requirements.txt); whether one is here.
ModelInputError
    A ValueError whose message says why rows cannot be read as the model reads them.
warm_up()
    Compile the import's kernels (or load them from numba's cache) ahead of use; the app
    runs it in the background when its server starts.

Known limits: CatBoost models with categorical, text or embedding features
and non-oblivious CatBoost trees; scikit-learn multi-output models; XGBoost
multi-target and linear boosters; LightGBM linear trees. Each is refused
with a message. An XGBoost ``Booster``'s ``predict`` returns probabilities
where ``ImportedModel.predict`` returns classes (compare with
``predict_proba``). Early stopping: the trees the library's ``predict``
uses are the ones imported (XGBoost's wrappers and model files: up to the
recorded best iteration; a ``Booster``: every tree), said by
``ImportedModel.trees_used``.

The libraries are the optional extras ``models`` and ``catboost`` of ``pyproject.toml``
(``pip install .[models,catboost]``; treelite and m2cgen are the ``runtimes`` extra,
``requirements-runtimes.txt``), imported only inside the functions that need them
(``_optional``): ``import trees`` needs none of them, the readers of their files neither.
"""

__all__ = [
    "ADAPTERS",
    "CHANGE_TOLERANCE",
    "CONDITIONINGS",
    "DEMO_LIBRARIES",
    "DISAGREEMENT_COLUMNS",
    "ConditionedModel",
    "ConditioningAudit",
    "LIBRARY_NAMES",
    "LIMITS",
    "LibraryNotInstalled",
    "ImportedModel",
    "ModelFileError",
    "ModelInputError",
    "OPTIONAL_LIBRARIES",
    "PROBE_COLUMNS",
    "ParityReport",
    "RUNTIMES",
    "RUNTIME_STATUSES",
    "RuntimeParityReport",
    "SKOPS_ALLOWED",
    "audit_conditioning",
    "check_export",
    "export_onnx",
    "from_model",
    "is_installed",
    "load_model_file",
    "mirrored_model",
    "parity_check",
    "parity_report",
    "remedy_snippet",
    "threshold_probes",
    "train_demo_model",
    "warm_up",
]


def __getattr__(name):
    # The public names' homes (``_public``) are imported on a name's first use (PEP 562), so
    # that the compile worker (``lab.kernel_worker``) warms the kernels of this package's
    # modules without pandas and scikit-learn (``_warmup``).
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import _public

    return getattr(_public, name)


def __dir__():
    return sorted({*globals(), *__all__})
