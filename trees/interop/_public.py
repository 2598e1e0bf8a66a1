"""The homes of ``trees.interop``'s public names, imported on a name's first use (the package's
``__getattr__``): they bring pandas and scikit-learn, which the kernels' modules (``_walk``,
``_oblivious``, ``_scan``, ``_predict``) and their warm-up (``_warmup``) need not."""

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
