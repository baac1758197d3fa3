"""The byte-level alphabet helpers: literal expectations from the UTF-8 bytes."""

from __future__ import annotations

from hfcompat.pipeline import bytelevel
from hfcompat.pipeline.bytelevel import BYTE_TO_CHAR, bytes_to_chars, first_byte_chars, last_byte_chars


def test_bytes_to_chars_maps_each_byte() -> None:
    """One char per byte: printable ASCII stays, space is Ġ, the bytes of é are Ã and ©."""
    assert bytes_to_chars(b"a b") == "aĠb"
    assert bytes_to_chars("é".encode()) == "Ã©"


def test_edge_byte_chars_of_each_char() -> None:
    """猫 is E7 8C AB, é is C3 A9, 😀 is F0 9F 98 80: one char per input char."""
    text = "a猫é😀"
    assert first_byte_chars(text) == "a" + BYTE_TO_CHAR[0xE7] + BYTE_TO_CHAR[0xC3] + BYTE_TO_CHAR[0xF0]
    assert last_byte_chars(text) == "a" + BYTE_TO_CHAR[0xAB] + BYTE_TO_CHAR[0xA9] + BYTE_TO_CHAR[0x80]


def test_edge_byte_tables_stay_bounded(monkeypatch) -> None:
    """Past its limit a table still answers but remembers no more chars."""
    table = bytelevel._EdgeByteChars(-1)
    monkeypatch.setattr(bytelevel._EdgeByteChars, "LIMIT", 2)
    assert "猫犬鳥".translate(table) == BYTE_TO_CHAR[0xAB] + BYTE_TO_CHAR[0xAC] + BYTE_TO_CHAR[0xA5]
    assert len(table) == 2
