"""The GPT-2 byte-level alphabet: each byte as one printable character."""

from __future__ import annotations

import codecs


def _bytes_to_unicode() -> dict[int, str]:
    """Map every byte to a printable char; bytes that print keep their code point."""
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    mapping = {b: chr(b) for b in printable}
    shifted = 0
    for b in range(256):
        if b not in mapping:
            mapping[b] = chr(256 + shifted)
            shifted += 1
    return mapping


BYTE_TO_CHAR: dict[int, str] = _bytes_to_unicode()
CHAR_TO_BYTE: dict[str, int] = {c: b for b, c in BYTE_TO_CHAR.items()}
# The chars of bytes 0..255 in byte order: a decoding table for codecs.charmap_decode.
BYTE_CHARS = "".join(BYTE_TO_CHAR[b] for b in range(256))


def bytes_to_chars(data: bytes) -> str:
    """Return the byte-level string of `data` (one C call)."""
    return codecs.charmap_decode(data, "strict", BYTE_CHARS)[0]


class _EdgeByteChars(dict):
    """A str.translate table: code point -> the byte-level char of its first (or last) UTF-8 byte."""

    LIMIT = 1 << 16  # distinct chars remembered

    def __init__(self, byte_index: int):
        super().__init__()
        self.byte_index = byte_index

    def __missing__(self, code: int) -> str:
        char = BYTE_TO_CHAR[chr(code).encode("utf-8", "surrogatepass")[self.byte_index]]
        if len(self) < self.LIMIT:
            self[code] = char
        return char


_FIRST_BYTE_CHARS = _EdgeByteChars(0)
_LAST_BYTE_CHARS = _EdgeByteChars(-1)


def first_byte_chars(text: str) -> str:
    """For each char of `text`, the byte-level char of its first UTF-8 byte."""
    return text.translate(_FIRST_BYTE_CHARS)


def last_byte_chars(text: str) -> str:
    """For each char of `text`, the byte-level char of its last UTF-8 byte."""
    return text.translate(_LAST_BYTE_CHARS)


# Byte-level chars map to their byte as a latin-1 char; latin-1 chars outside the alphabet map to
# a char above U+00FF, so a string is all byte-level exactly when its translation encodes in latin-1.
BYTELEVEL_TO_LATIN1 = {ord(c): chr(b) for c, b in CHAR_TO_BYTE.items()}
BYTELEVEL_TO_LATIN1.update({i: "\uffff" for i in range(256) if chr(i) not in CHAR_TO_BYTE})


def chars_to_bytes(text: str) -> bytes | None:
    """Return the bytes of a byte-level string, or None if a char is not in the alphabet."""
    try:
        return text.translate(BYTELEVEL_TO_LATIN1).encode("latin-1")
    except UnicodeEncodeError:
        return None
