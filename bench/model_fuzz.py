"""A fuzzer of the model readers (issue 60): valid files mutated, each read and audited.

Each case takes a valid model file of one format (XGBoost JSON and UBJSON,
LightGBM text, CatBoost JSON, scikit-learn skops), mutates it one way
(:data:`MUTATIONS`: byte flips, truncation, a size field set to an extreme,
a child index pointed elsewhere, deep nesting) and reads and audits it in a
worker process with a time and a memory limit (this module is the worker's
helper: ``python -m bench.model_fuzz``, forked per case as the app's model
reader is). Every case must end in an audit whose predictions are finite
numbers of the right shape, or in a refusal in words
(:class:`trees.interop.ModelFileError`); a case stopped at a limit, a crash
or another exception is a finding.

``tests/test_model_fuzz.py`` runs a bounded budget with a fixed seed;
``python -m bench.bench_model_fuzz`` a longer one.
"""

import io
import json
import struct
import zipfile

import numpy as np

from datasets.upload_worker import WorkerHelper, helper_main
from trees.interop import ModelFileError, audit_conditioning, load_model_file
from trees.interop._ubjson import decode_ubjson

__all__ = ["MUTATIONS", "fuzz", "mutate", "read_and_audit", "ubjson"]

# Numbers a size field or an index is set to: the edges of the integer types and of the limits.
EXTREMES = (0, -1, 1, 2, 255, 2**15, 2**31 - 1, 2**31, 2**32, 2**53, 2**63 - 1, -(2**31),
            10**6, 10**9, 10**18)  # fmt: skip
_ROWS = 40
_HELPER = WorkerHelper("bench.model_fuzz", env={"OMP_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"})


# ------------------------------------------------------------------------ UBJSON
def ubjson(value):
    """``value`` (dicts, lists, numpy arrays, str, int, float, bool, None) as UBJSON bytes;
    numpy arrays become typed arrays of their own type, as XGBoost writes them."""
    if isinstance(value, dict):
        return b"{" + b"".join(_key(k) + ubjson(v) for k, v in value.items()) + b"}"
    if isinstance(value, np.ndarray):
        code = value.dtype.kind + str(value.dtype.itemsize)
        kind, dtype = _TYPED.get(code, (b"U", ">u1"))
        return b"[$" + kind + b"#L" + struct.pack(">q", value.size) + value.astype(dtype).tobytes()
    if isinstance(value, list | tuple):
        return b"[" + b"".join(ubjson(v) for v in value) + b"]"
    if isinstance(value, str):
        return b"S" + _key(value)
    if isinstance(value, bool):
        return b"T" if value else b"F"
    if value is None:
        return b"Z"
    if isinstance(value, int):
        return b"L" + struct.pack(">q", value)
    return b"D" + struct.pack(">d", value)


_TYPED = {"i1": (b"i", ">i1"), "u1": (b"U", ">u1"), "i2": (b"I", ">i2"), "i4": (b"l", ">i4"),
          "i8": (b"L", ">i8"), "f4": (b"d", ">f4"), "f8": (b"D", ">f8")}  # fmt: skip


def _key(text):
    raw = text.encode()
    return b"L" + struct.pack(">q", len(raw)) + raw


# ------------------------------------------------------------------ the documents
def _document(name, data):
    """The file as a mutable document: (kind, value) of a JSON, UBJSON, text or skops file."""
    if name.endswith(".ubj"):
        return "ubjson", decode_ubjson(data)
    if name.endswith(".json"):
        return "json", json.loads(data)
    if name.endswith(".txt"):
        return "text", data.decode().splitlines()
    archive = zipfile.ZipFile(io.BytesIO(data))
    return "skops", {i.filename: archive.read(i.filename) for i in archive.infolist()}


def _encoded(kind, value):
    if kind == "ubjson":
        return ubjson(value)
    if kind == "json":
        return json.dumps(value).encode()
    if kind == "text":
        return "\n".join(value).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for member, content in value.items():
            archive.writestr(member, content)
    return out.getvalue()


def _places(value, path=()):
    """(path, leaf) of every number or digit string of a JSON-like document."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))
    elif isinstance(value, np.ndarray):
        for index in range(min(value.size, 64)):
            yield (*path, index), value
    elif isinstance(value, int | float) or (isinstance(value, str) and value.strip("-").isdigit()):
        yield path, value


def _set(document, path, new):
    target = document
    for step in path[:-1]:
        target = target[step]
    if isinstance(target, np.ndarray):
        target = target.astype(np.int64) if target.dtype.kind in "iub" else target
        target[path[-1]] = new
        _set(document, path[:-1], target)
    else:
        target[path[-1]] = str(new) if isinstance(target[path[-1]], str) else new


# ------------------------------------------------------------------- the mutations
def _flip_bytes(name, data, rng):
    raw = bytearray(data)
    for position in rng.integers(0, len(raw), size=rng.integers(1, 8)):
        raw[position] = rng.integers(0, 256)
    return bytes(raw)


def _truncate(name, data, rng):
    return data[: rng.integers(0, len(data))]


def _size_field(name, data, rng):
    """A number of the document (a count, a size, an index, a value) set to an extreme."""
    kind, document = _document(name, data)
    if kind == "text":
        return _text_number(document, rng, keys=None)
    if kind == "skops":
        return _skops_schema(document, rng, _set_number)
    places = list(_places(document))
    path, _ = places[rng.integers(len(places))]
    _set(document, path, int(rng.choice(EXTREMES)))
    return _encoded(kind, document)


def _text_number(lines, rng, keys):
    """A LightGBM text with one number of a ``key=...`` line (of ``keys``) set to an extreme."""
    candidates = [i for i, line in enumerate(lines) if "=" in line and (
        keys is None or line.split("=", 1)[0] in keys) and line.split("=", 1)[1].strip()]  # fmt: skip
    index = candidates[rng.integers(len(candidates))]
    key, values = lines[index].split("=", 1)
    tokens = values.split()
    tokens[rng.integers(len(tokens))] = str(int(rng.choice(EXTREMES)))
    lines[index] = f"{key}={' '.join(tokens)}"
    return "\n".join(lines).encode()


def _set_number(schema, rng):
    places = [(p, v) for p, v in _places(schema) if p[-1] == "content"]
    path, _ = places[rng.integers(len(places))]
    _set(schema, path, int(rng.choice(EXTREMES)))


def _skops_schema(members, rng, change):
    schema = json.loads(members["schema.json"])
    change(schema, rng)
    members["schema.json"] = json.dumps(schema).encode()
    return _encoded("skops", members)


def _child_index(name, data, rng):
    """A child of some node pointed elsewhere: the root, itself, out of range, a leaf's code."""
    kind, document = _document(name, data)
    if kind == "text":
        return _text_number(document, rng, keys={"left_child", "right_child"})
    if kind == "skops":
        return _skops_children(document, rng)
    if "oblivious_trees" in document:  # CatBoost has no children: its levels repeat instead
        tree = document["oblivious_trees"][rng.integers(len(document["oblivious_trees"]))]
        tree["splits"] = tree["splits"] * int(rng.integers(2, 8))
        return _encoded(kind, document)
    trees = document["learner"]["gradient_booster"]["model"]["trees"]
    tree = trees[rng.integers(len(trees))]
    side = ("left_children", "right_children")[rng.integers(2)]
    children = np.asarray(tree[side]).copy()
    node = int(rng.integers(children.size))
    children[node] = rng.choice([0, node, -1, children.size, children.size - 1, 2**31 - 1])
    tree[side] = children if kind == "ubjson" else children.tolist()
    return _encoded(kind, document)


def _skops_children(members, rng):
    schema = json.loads(members["schema.json"])
    files = [n.get("file") for _, n in _dicts(schema) if n.get("__loader__") == "NdArrayNode"]
    for member in files:
        nodes = np.load(io.BytesIO(members[member]), allow_pickle=False)
        if nodes.dtype.names and "left_child" in nodes.dtype.names:
            node = int(rng.integers(nodes.shape[0]))
            side = ("left_child", "right_child")[rng.integers(2)]
            nodes[side][node] = rng.choice([0, node, -1, nodes.shape[0], 2**31 - 1])
            buffer = io.BytesIO()
            np.save(buffer, nodes, allow_pickle=False)
            members[member] = buffer.getvalue()
            break
    return _encoded("skops", members)


def _dicts(value, path=()):
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from _dicts(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _dicts(item, (*path, index))


def _nesting(name, data, rng):
    """Lists nested hundreds to a hundred thousand levels deep put first in the document."""
    depth = int(rng.choice([70, 1_000, 100_000]))
    nest = b"[" * depth + b"]" * depth
    kind, document = _document(name, data)
    if kind == "text":  # no nesting in a text: a line of many numbers instead
        index = int(rng.integers(len(document)))
        document[index] = document[index] + " 1" * depth
        return _encoded(kind, document)
    if kind == "skops":
        document["schema.json"] = b'{"nest": ' + nest + b", " + document["schema.json"][1:]
        return _encoded(kind, document)
    raw = _encoded(kind, document)
    first = b'"nest": ' + nest + b", " if kind == "json" else _key("nest") + nest
    return raw[:1] + first + raw[1:]  # right after the document's opening brace


MUTATIONS = {
    "byte flips": _flip_bytes,
    "truncation": _truncate,
    "size field": _size_field,
    "child index": _child_index,
    "nesting": _nesting,
}


def mutate(name, data, mutation, rng):
    """``data`` (a file called ``name``) mutated by ``MUTATIONS[mutation]``; a mutation that
    cannot apply to this file (it does not parse any more) falls back to byte flips."""
    try:
        return MUTATIONS[mutation](name, data, rng)
    except (ValueError, KeyError, IndexError, TypeError, zipfile.BadZipFile, ModelFileError):
        return _flip_bytes(name, data, rng)


# ---------------------------------------------------------------------- the check
def read_and_audit(name, data):
    """Read the file and audit the model on 40 rows of lattice values; what came of it.

    Returns ``("audited", detail)``; raises :class:`ModelFileError` for a refusal, and
    ``AssertionError`` when the audit's predictions are not finite numbers of the
    model's shape (a finding).
    """
    model = load_model_file(name, data)
    rng = np.random.default_rng(0)
    X = rng.integers(0, 6, size=(_ROWS, model.n_features)).astype(float)
    audit = audit_conditioning(model, X)
    native = np.asarray(audit.predictions["native"])
    assert native.shape[0] == _ROWS and np.all(np.isfinite(native)), "non-finite predictions"
    if model.is_classifier:
        assert np.allclose(native.sum(axis=1), 1.0), "probabilities that do not sum to 1"
    return "audited", audit.headline()


def fuzz(files, seed=0, cases=100, seconds=10.0, megabytes=500):
    """Mutate ``files`` ({name: bytes}) ``cases`` times each; every case's outcome.

    Yields
    ------
    (name, mutation, status, detail)
        ``status``: "audited", "refused" (the detail is the reader's words), or a finding:
        "timeout", "memory", "died" or "failed".
    """
    rng = np.random.default_rng(seed)
    kinds = list(MUTATIONS)
    for case in range(cases):
        for name, original in files.items():
            mutation = kinds[case % len(kinds)]
            data = mutate(name, original, mutation, rng)
            status, detail = _HELPER.ask((name, data), seconds, int(megabytes * 2**20))
            if status == "ok":
                status, detail = detail
            yield name, mutation, status, detail


if __name__ == "__main__":
    helper_main(read_and_audit, (ModelFileError,))
