"""ByteLevel: each UTF-8 byte becomes its byte-level char."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..pipeline.bytelevel import BYTE_TO_CHAR, bytes_to_chars
from ..pipeline.normalized import NormalizedString
from .base import Normalizer


# The number of UTF-8 bytes of the char a byte starts (0 for continuation bytes).
_UTF8_WIDTHS = bytes(0 if 0x80 <= b < 0xC0 else 1 if b < 0x80 else 2 if b < 0xE0 else
                     3 if b < 0xF0 else 4 for b in range(256))
_ASCII_BYTE_LEVEL = {b: BYTE_TO_CHAR[b] for b in range(0x80)}
_BYTE_LEVEL_SPACE = BYTE_TO_CHAR[0x20]


@dataclass
class ByteLevel(Normalizer):
    """Each UTF-8 byte becomes its byte-level char; all of a char's bytes share its span."""

    TYPE: ClassVar[str] = "ByteLevel"

    def normalize(self, ns: NormalizedString) -> None:
        """Map in place."""
        text = ns.normalized
        if text.isascii():
            if text.isprintable():  # only the space is not its own byte-level char
                ns.map_chars(text.replace(" ", _BYTE_LEVEL_SPACE))
            else:
                ns.map_chars(text.translate(_ASCII_BYTE_LEVEL))
            return
        data = text.encode("utf-8")
        widths = data.translate(_UTF8_WIDTHS).replace(b"\x00", b"")
        ns.expand_counts(bytes_to_chars(data), widths)
