"""The GPT-2 byte-level alphabet: each byte as one printable character."""

from __future__ import annotations


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
# Translating a latin-1 string with this table maps each byte to its char in one C call.
_LATIN1_TABLE = {b: c for b, c in BYTE_TO_CHAR.items()}


def bytes_to_chars(data: bytes) -> str:
    """Return the byte-level string of `data`."""
    return data.decode("latin-1").translate(_LATIN1_TABLE)


def chars_to_bytes(text: str) -> bytes | None:
    """Return the bytes of a byte-level string, or None if a char is not in the alphabet."""
    try:
        return bytes(CHAR_TO_BYTE[c] for c in text)
    except KeyError:
        return None
