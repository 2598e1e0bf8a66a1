"""The safe loader of uploaded model files: :func:`load_model_file`.

Never unpickle an uploaded file: a pickle (and so a joblib file) runs any
code it names when it is opened. Accepted instead, each recognised by its
first bytes (the name only breaks ties):

* XGBoost's JSON (``save_model("model.json")``) and UBJSON
  (``"model.ubj"``) model files, decoded here (``json``, ``_ubjson``);
* LightGBM's text model (``save_model("model.txt")``);
* CatBoost's JSON export (``save_model("model.json", format="json")``);
* scikit-learn models saved with skops (``skops.io.dump(model, "model.skops")``),
  loaded by ``skops.io.loads`` only when every type the file names that
  skops does not trust by default is on :data:`SKOPS_ALLOWED`
  (``skops.io.get_untrusted_types``), and only when the loaded object is a
  supported tree model.

Everything is bounded: the file's size (``LIMITS["bytes"]``), the JSON
nesting (Python's parser refuses deep nesting with ``RecursionError``,
turned into a message), the zip members of a skops file (their declared
sizes are summed before anything is decompressed) and the tree and node
counts (checked by the adapters before arrays are built). Every failure is
a :class:`ModelFileError` saying what is wrong and how to fix it.
"""

import io
import json
import zipfile

from ._build import LIMITS, ModelFileError, need
from ._catboost import from_catboost
from ._lightgbm import from_lightgbm
from ._optional import install_command
from ._sklearn import SKLEARN_TYPES, from_sklearn_model
from ._skops_checks import check_skops_trees
from ._ubjson import decode_ubjson
from ._xgboost import from_xgboost

__all__ = ["SAVE_HINT", "SKOPS_ALLOWED", "load_model_file"]

SAVE_HINT = (
    "Save the model in its library's own format: XGBoost model.save_model('model.json'), "
    "LightGBM model.booster_.save_model('model.txt'), CatBoost "
    "model.save_model('model.json', format='json'), scikit-learn "
    "skops.io.dump(model, 'model.skops')."
)
# Types a skops file may name beyond skops's default trust: the fitted trees' own classes.
SKOPS_ALLOWED = frozenset({
    "sklearn.tree._tree.Tree",
    "sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor",
    "sklearn.ensemble._hist_gradient_boosting.binning._BinMapper",
    "sklearn._loss.loss.HalfBinomialLoss",
    "sklearn._loss.loss.HalfMultinomialLoss",
    "sklearn._loss.loss.HalfSquaredError",
    "sklearn._loss.link.IdentityLink",
    "sklearn._loss.link.LogitLink",
    "sklearn._loss.link.MultinomialLogit",
})  # fmt: skip
_PICKLE_NAMES = (".pkl", ".pickle", ".joblib", ".sav", ".pck")


def _refuse_pickle(name, data):
    is_pickle = data[:1] == b"\x80" and data[1:2] in bytes(range(2, 6))
    if is_pickle or name.lower().endswith(_PICKLE_NAMES):
        raise ModelFileError(
            f"{name} is a pickle or joblib file. Such files can run any code when they are "
            f"opened, so the lab never opens them. {SAVE_HINT}"
        )


def _check_json_budget(name, data):
    """Refuse JSON whose containers or strings would amplify in memory, before parsing it.

    Each ``{`` or ``[`` may open a container (a Python object of 56-64 bytes
    for two bytes of file), each pair of ``"`` a string: their counts, an upper
    bound read in one pass, are held to ``LIMITS["containers"]`` and
    ``LIMITS["strings"]``.
    """
    containers = data.count(b"{") + data.count(b"[")
    need(containers <= LIMITS["containers"],
         f"{name} holds up to {containers:,} JSON objects and arrays; a model file has at most "
         f"{LIMITS['containers']:,}, so it is not a model the lab reads.")  # fmt: skip
    strings = data.count(b'"') // 2
    need(strings <= LIMITS["strings"],
         f"{name} holds up to {strings:,} JSON strings; a model file has at most "
         f"{LIMITS['strings']:,}, so it is not a model the lab reads.")  # fmt: skip


def _parse_json(name, data):
    """The JSON document ``data`` (bounded: :func:`_check_json_budget`), or a message."""
    _check_json_budget(name, data)
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ModelFileError(f"{name} is not UTF-8 text. {SAVE_HINT}") from None
    except RecursionError:
        raise ModelFileError(f"{name} nests its JSON too deeply to be a model file.") from None
    except ValueError as error:
        raise ModelFileError(f"{name} is not valid JSON ({error}); is it truncated?") from None


def _json(name, data):
    document = _parse_json(name, data)
    need(isinstance(document, dict), f"{name} holds JSON, but not an object. {SAVE_HINT}")
    if "learner" in document:
        return from_xgboost(document, kind="XGBoost JSON")
    if "oblivious_trees" in document:
        return from_catboost(document, kind="CatBoost JSON")
    raise ModelFileError(
        f"{name} is JSON, but neither an XGBoost model nor a CatBoost export. {SAVE_HINT}"
    )


def _check_skops_schema(name, data):
    """The zip's declared sizes, then its schema's trees (``_skops_checks``), before skops runs.

    The members' sizes are those the zip's directory declares (a member read
    stops at its declared size), summed before anything is decompressed.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise ModelFileError(f"{name} is not a valid skops file (a damaged zip).") from None
    need(sum(m.file_size for m in members) <= 4 * LIMITS["bytes"],
         f"{name} unpacks to more than {4 * LIMITS['bytes'] // 2**20} MB.")  # fmt: skip
    sizes = {m.filename: m.file_size for m in members}
    need(sizes.get("schema.json", LIMITS["bytes"] + 1) <= LIMITS["bytes"],
         f"{name} is not a valid skops file (its schema.json is missing or too large).")  # fmt: skip
    try:
        schema = _parse_json(f"{name}'s schema.json", archive.read("schema.json"))
        check_skops_trees(archive, schema)
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as error:
        if isinstance(error, ModelFileError):
            raise
        raise ModelFileError(f"{name} is not a valid skops file ({error}).") from None


def _skops(name, data):
    try:
        import skops.io
    except ImportError:
        raise ModelFileError(
            f"{name} is a skops file, and reading one needs skops: `{install_command('skops')}`."
        ) from None

    _check_skops_schema(name, data)
    try:
        untrusted = skops.io.get_untrusted_types(data=data)
    except Exception as error:  # skops raises many kinds on a damaged file
        raise ModelFileError(f"{name} is not a valid skops file ({error}).") from None
    refused = sorted(set(untrusted) - SKOPS_ALLOWED)
    need(not refused, f"{name} names types the lab does not load: {', '.join(refused)}. Only "
         f"scikit-learn tree models ({', '.join(SKLEARN_TYPES)}) are accepted.")  # fmt: skip
    try:
        model = skops.io.loads(data, trusted=list(untrusted))
    except Exception as error:
        raise ModelFileError(f"{name} could not be loaded by skops ({error}).") from None
    need(type(model).__name__ in SKLEARN_TYPES and type(model).__module__.startswith("sklearn."),
         f"{name} holds a {type(model).__name__}; only scikit-learn tree models "
         "(trees, forests, gradient boosting) are accepted.")  # fmt: skip
    return from_sklearn_model(model)


def load_model_file(name, data):
    """Read an uploaded model file safely (module docstring).

    Parameters
    ----------
    name : str
        The file's name (``.json``, ``.ubj``, ``.txt``, ``.skops``...).
    data : bytes

    Returns
    -------
    ImportedModel

    Raises
    ------
    ModelFileError
        For a pickle or joblib file, a file too large, malformed, truncated
        or of an unknown kind, with what to do instead.
    """
    name = str(name or "the file")
    need(isinstance(data, bytes | bytearray | memoryview), "The model file must be given as bytes.")
    data = bytes(data)
    need(len(data) <= LIMITS["bytes"], f"{name} is {len(data) / 2**20:.1f} MB; the limit is "
         f"{LIMITS['bytes'] // 2**20} MB. Export a smaller model.")  # fmt: skip
    need(data.strip(), f"{name} is empty.")
    _refuse_pickle(name, data)
    try:
        return _read(name, data)
    except ModelFileError:
        raise
    except RecursionError:
        raise ModelFileError(f"{name} nests too deeply to be a model file.") from None
    except (KeyError, TypeError, AttributeError, IndexError, ValueError, OverflowError) as error:
        # a field of an unexpected type deep in a document: the adapters' checks name most
        raise ModelFileError(
            f"{name} is damaged or not a model of the kind it looks like ({type(error).__name__}: "
            f"{error}). {SAVE_HINT}"
        ) from None


def _read(name, data):
    head = data.lstrip()[:2]
    if data[:4] == b"PK\x03\x04" or name.lower().endswith(".skops"):
        return _skops(name, data)
    if name.lower().endswith(".ubj") or (head[:1] == b"{" and head[1:2] in b"iUIlL#"):
        return from_xgboost(_ubjson_document(name, data), kind="XGBoost UBJSON")
    if head[:1] == b"{":
        return _json(name, data)
    if data.startswith(b"tree"):
        return from_lightgbm(data.decode("utf-8", errors="replace"), kind="LightGBM text")
    raise ModelFileError(f"{name} is not a model file the lab reads. {SAVE_HINT}")


def _ubjson_document(name, data):
    document = decode_ubjson(data)
    need(isinstance(document, dict), f"{name} is UBJSON, but not an XGBoost model.")
    return document
