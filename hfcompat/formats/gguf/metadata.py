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
        return [self.value(element_type, key, depth + 1) for _ in range(count)]


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
    cursor.scalar("Q", None)  # the tensors follow the keys: not read
    count = cursor.scalar("Q", None)
    keys: dict[str, Any] = {}
    for _ in range(count):
        name = cursor.string(None)
        if name in keys:
            raise cursor.fail("the key is given twice", name)
        keys[name] = cursor.value(cursor.scalar("I", name), name)
    return keys
