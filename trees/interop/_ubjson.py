"""A bounded decoder of the UBJSON subset XGBoost writes (``save_model("model.ubj")``).

XGBoost's binary model file is UBJSON (https://ubjson.org): big-endian
numbers, length-prefixed strings, objects and arrays, and typed arrays
(``[$<type>#<count>`` then the raw values), which become numpy arrays here.
Decoding it here, rather than handing an uploaded file to XGBoost's parser,
keeps every check in Python: a declared count or length larger than the
bytes left, a nesting deeper than :data:`MAX_DEPTH`, an unknown marker, a
truncation or bytes after the document raise
:class:`~trees.interop.ModelFileError` at once.

Amplification is bounded by counts: a container of two bytes becomes a
Python list or dict of 56-64 bytes, and a value of one byte (``Z``) a
pointer of eight, so the decoder counts the containers, strings and other
values it makes as it goes and stops at ``LIMITS["containers"]``,
``LIMITS["strings"]`` and ``LIMITS["values"]``. XGBoost writes its per-node
arrays as typed arrays (numpy arrays here, not counted as values), so a
model has few of the others: about 16 containers, 50 strings and 10 values a
tree.
"""

import struct

import numpy as np

from ._build import LIMITS, ModelFileError

__all__ = ["MAX_DEPTH", "decode_ubjson"]

MAX_DEPTH = 64
_NUMBERS = {b"i": ">i1", b"U": ">u1", b"I": ">i2", b"l": ">i4", b"L": ">i8", b"d": ">f4",
            b"D": ">f8"}  # fmt: skip
_CONSTANTS = {b"T": True, b"F": False, b"Z": None}


class _Reader:
    def __init__(self, data):
        self.data, self.pos = memoryview(data), 0
        self.made = {"containers": 0, "strings": 0, "values": 0}

    def made_one(self, kind):
        """Count a container, string or value made; refuse past its limit (module docstring)."""
        self.made[kind] += 1
        if self.made[kind] > LIMITS[kind]:
            raise ModelFileError(
                f"The UBJSON file holds more than {LIMITS[kind]:,} {kind}, far more than an "
                "XGBoost model, so it is not a model the lab reads."
            )

    def left(self):
        """Bytes not read yet."""
        return len(self.data) - self.pos

    def take(self, n):
        if n < 0 or self.pos + n > len(self.data):
            raise ModelFileError("The UBJSON model file is truncated or declares too many values.")
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def marker(self):
        return bytes(self.take(1))

    def number(self, marker):
        dtype = np.dtype(_NUMBERS[marker])
        return np.frombuffer(self.take(dtype.itemsize), dtype=dtype)[0].item()

    def count(self):
        marker = self.marker()
        if marker not in _NUMBERS or marker in (b"d", b"D"):
            raise ModelFileError("A UBJSON length is not an integer.")
        return self.number(marker)

    def string(self):
        self.made_one("strings")
        return bytes(self.take(self.count())).decode("utf-8", errors="replace")

    def items(self, least_bytes):
        """A container's declared count, when its items could fit in the bytes left."""
        n = self.count()
        if n < 0 or n * least_bytes > self.left():
            raise ModelFileError("The UBJSON model file is truncated or declares too many values.")
        return n


def _value(reader, marker, depth):
    if depth > MAX_DEPTH:
        raise ModelFileError(f"The model file nests deeper than {MAX_DEPTH} levels.")
    if marker == b"S" or marker == b"H":
        return reader.string()
    if marker == b"[" or marker == b"{":
        reader.made_one("containers")
        return _array(reader, depth) if marker == b"[" else _object(reader, depth)
    reader.made_one("values")
    if marker in _NUMBERS:
        return reader.number(marker)
    if marker in _CONSTANTS:
        return _CONSTANTS[marker]
    if marker == b"C":
        return bytes(reader.take(1)).decode("latin-1")
    raise ModelFileError(f"Unknown UBJSON marker {marker!r} at byte {reader.pos - 1}.")


def _array(reader, depth):
    marker = reader.marker()
    if marker == b"$":
        kind = reader.marker()
        if reader.marker() != b"#" or kind not in _NUMBERS:
            raise ModelFileError("A typed UBJSON array lacks its count or has an unknown type.")
        n = reader.count()
        dtype = np.dtype(_NUMBERS[kind])
        return np.frombuffer(reader.take(n * dtype.itemsize), dtype=dtype).astype(
            dtype.newbyteorder("=")
        )
    if marker == b"#":  # each item takes a byte at least
        return [_value(reader, reader.marker(), depth + 1) for _ in range(reader.items(1))]
    items = []
    while marker != b"]":
        items.append(_value(reader, marker, depth + 1))
        marker = reader.marker()
    return items


def _object(reader, depth):
    out = {}
    marker = reader.marker()
    if marker == b"#":  # each member takes three bytes at least: a key's length, a value
        for _ in range(reader.items(3)):
            key = reader.string()
            out[key] = _value(reader, reader.marker(), depth + 1)
        return out
    while marker != b"}":
        reader.pos -= 1
        key = reader.string()
        out[key] = _value(reader, reader.marker(), depth + 1)
        marker = reader.marker()
    return out


def decode_ubjson(data):
    """The value a UBJSON document holds (dicts, lists, numpy arrays, scalars).

    Raises
    ------
    ModelFileError
        For anything that is not a complete, bounded UBJSON document.
    """
    reader = _Reader(data)
    try:
        value = _value(reader, reader.marker(), 0)
    except (struct.error, ValueError, OverflowError) as error:
        if isinstance(error, ModelFileError):
            raise
        raise ModelFileError(f"The UBJSON model file is malformed ({error}).") from None
    if reader.left():
        raise ModelFileError(
            f"The UBJSON model file goes on for {reader.left():,} bytes after its document: is "
            "it two files joined, or damaged?"
        )
    return value
