"""The homes of ``trees.interop``'s public names, imported on a name's first use (the package's
``__getattr__``): they bring pandas and scikit-learn, which the kernels' modules (``_walk``,
``_oblivious``, ``_scan``, ``_predict``) and their warm-up (``_warmup``) need not. The names are
the package's ``__all__`` (listed there once), which its ``__getattr__`` reads from here."""

# ruff: noqa: F401 (imported to be read by the package's ``__getattr__``, not used here)

from ._audit import CHANGE_TOLERANCE, ConditioningAudit, audit_conditioning
from ._build import LIMITS, ModelFileError
from ._demo import DEMO_LIBRARIES, remedy_snippet, train_demo_model
from ._files import SKOPS_ALLOWED, load_model_file
from ._inputs import LIBRARY_NAMES, ModelInputError
from ._model import CONDITIONINGS, ImportedModel
from ._onnx import export_onnx
from ._optional import OPTIONAL_LIBRARIES, LibraryNotInstalled, is_installed
from ._parity import DISAGREEMENT_COLUMNS, RuntimeParityReport, check_export, parity_report
from ._probes import PROBE_COLUMNS, ParityReport, parity_check, threshold_probes
from ._registry import ADAPTERS, from_model
from ._remedy import ConditionedModel, mirrored_model
from ._runtimes import RUNTIME_STATUSES, RUNTIMES
from ._warmup import warm_up
