"""The key-value metadata of a GGUF file, read directly: what a tokenizer needs, and no tensor.

A GGUF file starts with the magic `GGUF`, a version (2 or 3), the tensor count and the key count
(u64 each), then its keys: a string name, a u32 value type and the value. Strings are a u64 byte
length and UTF-8 bytes; an array is a u32 element type, a u64 count and the elements. The byte
order is the writer's: a version whose low 16 bits are 0 was written the other way round, as
llama.cpp's `gguf-py` decides.

`gguf-py`'s GGUFReader builds NumPy views for every element of every array and takes 15-20 s
over the 128k tokens of a Llama 3 vocabulary; this reads them with `struct` and whole-array
`array` conversions in a fraction of a second, and gives the values `ReaderField.contents()`
gives (tests compare both on every reference file). It reads the keys through a memory map, so
a multi-gigabyte model file costs only its header.
"""

from __future__ import annotations

import mmap
import struct
import sys
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import FormatError

MAGIC = b"GGUF"
VERSIONS = (2, 3)
STRING = 8
ARRAY = 9
# The value types with a fixed size: type -> (struct code, array typecode).
SCALARS = {0: ("B", "B"), 1: ("b", "b"), 2: ("H", "H"), 3: ("h", "h"), 4: ("I", "I"), 5: ("i", "i"),
           6: ("f", "f"), 7: ("?", "B"), 10: ("Q", "Q"), 11: ("q", "q"), 12: ("d", "d")}
MAX_NESTING = 8  # arrays of arrays; llama.cpp writes none in tokenizer keys
MAX_DIMS = 4  # ggml's GGML_MAX_DIMS: a tensor with more dimensions is refused by llama.cpp
DEFAULT_ALIGNMENT = 32  # of the tensor data, when `general.alignment` is absent
# ggml's tensor types: type id -> (elements per block, bytes per block); ids llama.cpp has retired
# (4, 5 and 31-33, 36-38) are absent, and a tensor of an absent type is refused as gguf-py does.
TENSOR_TYPES = {0: (1, 4), 1: (1, 2), 2: (32, 18), 3: (32, 20), 6: (32, 22), 7: (32, 24), 8: (32, 34),
                9: (32, 40), 10: (256, 84), 11: (256, 110), 12: (256, 144), 13: (256, 176),
                14: (256, 210), 15: (256, 292), 16: (256, 66), 17: (256, 74), 18: (256, 98),
                19: (256, 50), 20: (32, 18), 21: (256, 110), 22: (256, 82), 23: (256, 136),
                24: (1, 1), 25: (1, 2), 26: (1, 4), 27: (1, 8), 28: (1, 8), 29: (256, 56), 30: (1, 2),
                34: (256, 54), 35: (256, 66), 39: (32, 17), 40: (64, 36), 41: (128, 18)}


@dataclass(frozen=True)
class NotUTF8:
    """A string value whose bytes are not UTF-8."""

    data: bytes


class _Cursor:
    """A position in the mapped file and the reads the format needs, each bounds-checked."""

    def __init__(self, data: Any, where: str):
        self.data = data
        self.where = where
        self.pos = 0
        self.order = "<"

    def fail(self, message: str, key: str | None = None) -> FormatError:
        """A FormatError at the current byte, naming the file and the key being read."""
        return FormatError(f"{message} (at byte {self.pos})", path=self.where, field=key)

    def take(self, size: int, key: str | None) -> memoryview | bytes:
        """The next `size` bytes; a file that ends first is truncated."""
        end = self.pos + size
        if size < 0 or end > len(self.data):
            raise self.fail(f"truncated: {size} bytes needed, {len(self.data) - self.pos} left", key)
        chunk = self.data[self.pos:end]
        self.pos = end
        return chunk

    def scalar(self, code: str, key: str | None) -> Any:
        """One fixed-size value (struct `code`) in the file's byte order."""
        return struct.unpack(self.order + code, self.take(struct.calcsize(code), key))[0]

    def string(self, key: str | None) -> str | NotUTF8:
        """A u64 length and that many bytes, decoded (a value that is not UTF-8 is kept as a
        NotUTF8: llama.cpp loads such a file, and only a key that is used needs to be text)."""
        raw = bytes(self.take(self.scalar("Q", key), key))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as error:
            if key is None:
                raise self.fail(f"a key name that is not UTF-8 ({error.reason} at its byte {error.start})") from None
            return NotUTF8(raw)

    def value(self, value_type: int, key: str, depth: int = 0) -> Any:
        """One value of `value_type`, as `gguf-py`'s `contents()` gives it."""
        if value_type in SCALARS:
            return self.scalar(SCALARS[value_type][0], key)
        if value_type == STRING:
            return self.string(key)
        if value_type == ARRAY:
            return self.array(key, depth)
        raise self.fail(f"unknown value type {value_type}", key)

    def array(self, key: str, depth: int) -> list:
        """A u32 element type, a u64 count and the elements."""
        if depth >= MAX_NESTING:
            raise self.fail(f"arrays nested more than {MAX_NESTING} deep", key)
        element_type = self.scalar("I", key)
        count = self.scalar("Q", key)
        if element_type in SCALARS:
            code, typecode = SCALARS[element_type]
            values = array(typecode)
            values.frombytes(self.take(count * values.itemsize, key))
            if self.order != ("<" if sys.byteorder == "little" else ">"):
                values.byteswap()
            return [bool(v) for v in values] if element_type == 7 else values.tolist()
        if element_type == STRING and count * 8 > len(self.data) - self.pos:
            raise self.fail(f"truncated: {count} strings cannot fit in {len(self.data) - self.pos} bytes", key)
        if element_type == ARRAY and count > len(self.data) - self.pos:
            raise self.fail(f"truncated: {count} arrays cannot fit in {len(self.data) - self.pos} bytes", key)
        if element_type == STRING:
            return self.strings(count, key)
        return [self.value(element_type, key, depth + 1) for _ in range(count)]

    def strings(self, count: int, key: str) -> list[str | NotUTF8]:
        """`count` strings, as `string` reads each, in one loop (a vocabulary and its merges are
        hundreds of thousands of them)."""
        data, pos, size = self.data, self.pos, len(self.data)
        length_at = struct.Struct(self.order + "Q").unpack_from
        found: list[str | NotUTF8] = []
        append = found.append
        for _ in range(count):
            if pos + 8 > size:
                break
            end = pos + 8 + length_at(data, pos)[0]
            if end > size:
                break
            raw = data[pos + 8:end]
            pos = end
            try:
                append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                append(NotUTF8(raw))
        self.pos = pos
        if len(found) < count:  # cut short: `string` names what is missing, where
            found.append(self.string(key))
        return found


def read_metadata(path: str | Path) -> dict[str, Any]:
    """Every key of a GGUF file -> its value (ints, floats, bools, strings and lists of them).

    A file that is not GGUF, of another version, cut short, with a key name that is not UTF-8, an
    unknown value type or a key given twice (llama.cpp refuses one) is a FormatError naming the
    file and the key; a string value that is not UTF-8 is read as a `NotUTF8`.
    """
    where = str(path)
    try:
        with open(path, "rb") as file:
            size = file.seek(0, 2)
            if size < 24:
                raise FormatError(f"a GGUF file has a 24-byte header; this one has {size} bytes", path=where)
            with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return _read_keys(_Cursor(data, where))
    except OSError as error:
        raise FormatError(f"cannot read the file ({error.strerror or error})", path=where) from None


def _read_keys(cursor: _Cursor) -> dict[str, Any]:
    """The header checked, then every key and value."""
    if bytes(cursor.take(4, None)) != MAGIC:
        raise cursor.fail("not a GGUF file: it does not start with the magic GGUF")
    version = cursor.scalar("I", None)
    if version & 0xFFFF == 0:  # written in the other byte order
        cursor.order = ">"
        version = struct.unpack(">I", struct.pack("<I", version))[0]
    if version not in VERSIONS:
        raise cursor.fail(f"GGUF version {version} is not one hfcompat reads ({', '.join(map(str, VERSIONS))})")
    tensors = cursor.scalar("Q", None)
    count = cursor.scalar("Q", None)
    keys: dict[str, Any] = {}
    for _ in range(count):
        name = cursor.string(None)
        if name in keys:
            raise cursor.fail("the key is given twice", name)
        keys[name] = cursor.value(cursor.scalar("I", name), name)
    _check_tensors(cursor, tensors, _alignment(cursor, keys))
    return keys


def _alignment(cursor: _Cursor, keys: dict[str, Any]) -> int:
    """The tensor data's alignment: `general.alignment`, a power of two, else 32."""
    value = keys.get("general.alignment", DEFAULT_ALIGNMENT)
    if type(value) is not int or value <= 0 or value & (value - 1):
        raise cursor.fail(f"the alignment must be a power of two, not {value!r}", "general.alignment")
    return value


def _check_tensors(cursor: _Cursor, count: int, alignment: int) -> None:
    """Walk the tensor infos that follow the keys, as llama.cpp does before it loads a vocabulary:
    each one whole, of a known type, its data where the running offset says and inside the file.
    A cut or damaged file is refused here even though no tensor is read."""
    if count * 28 > len(cursor.data) - cursor.pos:  # the smallest info is 28 bytes
        raise cursor.fail(f"truncated: {count} tensor infos cannot fit in {len(cursor.data) - cursor.pos} bytes")
    names: set[str] = set()
    extents = []
    for index in range(count):
        name = cursor.string(None)
        where = f"tensor {index} ({name!r})" if isinstance(name, str) else f"tensor {index}"
        if not isinstance(name, str) or name in names:
            raise cursor.fail(f"{where}: its name is {'given twice' if name in names else 'not UTF-8'}")
        names.add(name)
        dims = cursor.scalar("I", None)
        if not 1 <= dims <= MAX_DIMS:
            raise cursor.fail(f"{where}: {dims} dimensions (llama.cpp takes 1 to {MAX_DIMS})")
        elements = 1
        for _ in range(dims):
            elements *= cursor.scalar("Q", None)
        kind = cursor.scalar("I", None)
        if kind not in TENSOR_TYPES:
            raise cursor.fail(f"{where}: unknown tensor type {kind}")
        block, size = TENSOR_TYPES[kind]
        if elements % block:
            raise cursor.fail(f"{where}: {elements} elements are not whole blocks of {block}")
        extents.append((where, cursor.scalar("Q", None), elements // block * size))
    start = -(-cursor.pos // alignment) * alignment
    expected = 0
    for where, offset, size in extents:
        if offset != expected:
            raise cursor.fail(f"{where}: its data is at offset {offset}, expected {expected}")
        if start + offset + size > len(cursor.data):
            raise cursor.fail(f"truncated: {where} needs bytes up to {start + offset + size}, "
                              f"the file has {len(cursor.data)}")
        expected += -(-size // alignment) * alignment
