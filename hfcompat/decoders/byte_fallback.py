"""ByteFallback: <0xXX> tokens back into their bytes (U+FFFD per invalid byte, as HF does), and sentencepiece's
reading of invalid runs (SentencePieceByteFallback)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from .base import REPLACEMENT_CHAR, Decoder


_HEX_DIGITS = "0123456789abcdefABCDEF"


# Every token HF reads as one byte: `<0xHH>` with two hex digits of either case, or, because Rust's
# `u8::from_str_radix` accepts a plus sign, `<0x+H>`.
_BYTE_TOKENS: dict[str, int] = {
    f"<0x{hi}{lo}>": int(hi + lo, 16)
    for hi, lo in itertools.chain(itertools.product(_HEX_DIGITS, repeat=2),
                                  itertools.product("+", _HEX_DIGITS))
}


def _flush_bytes(run: list[int], out: list[str]) -> None:
    """Emit a run of byte tokens: its text if valid UTF-8, else one U+FFFD per byte."""
    try:
        out.append(bytes(run).decode("utf-8"))
    except UnicodeDecodeError:
        out.extend([REPLACEMENT_CHAR] * len(run))
    run.clear()


@dataclass
class ByteFallback(Decoder):
    """Byte fallback: runs of `<0xHH>` tokens become the text their bytes spell."""

    TYPE: ClassVar[str] = "ByteFallback"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Merge each run of byte tokens into one token (or one U+FFFD per byte if invalid)."""
        out: list[str] = []
        run: list[int] = []
        byte_tokens = _BYTE_TOKENS
        for token in tokens:
            byte = byte_tokens.get(token)
            if byte is not None:
                run.append(byte)
                continue
            if run:
                self.flush(run, out)
            out.append(token)
        if run:
            self.flush(run, out)
        return out

    def flush(self, run: list[int], out: list[str]) -> None:
        """Emit a run of byte tokens: its text if valid UTF-8, else one U+FFFD per byte."""
        _flush_bytes(run, out)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE}

    @classmethod
    def from_dict(cls, data: dict) -> "ByteFallback":
        """Read the tokenizer.json form (no fields)."""
        return cls()


_UTF8_LENGTHS = ((0x80, 1), (0xE0, 2), (0xF0, 3), (0xF8, 4))


@dataclass
class SentencePieceByteFallback(ByteFallback):
    """sentencepiece's decode of byte pieces: each UTF-8 character a run spells, and one U+FFFD for each byte
    that starts no valid character (tokenizers' ByteFallback gives U+FFFD for every byte of a run holding an
    invalid one). hfcompat's own: a tokenizer.json cannot hold it."""

    TYPE: ClassVar[str] = ""

    def flush(self, run: list[int], out: list[str]) -> None:
        """Emit a run of byte tokens character by character."""
        data, index, chars = bytes(run), 0, []
        while index < len(data):
            length = next((n for limit, n in _UTF8_LENGTHS if data[index] < limit), 1)
            try:
                chars.append(data[index:index + length].decode("utf-8"))
                index += length
            except UnicodeDecodeError:
                chars.append(REPLACEMENT_CHAR)
                index += 1
        out.append("".join(chars))
        run.clear()

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizers' ByteFallback replaces a whole invalid run."""
        raise UnsupportedConversion("decoder: sentencepiece's byte decode (one U+FFFD per byte that starts no "
                                    "valid character) has no form in tokenizer.json (ByteFallback replaces "
                                    "every byte of an invalid run)")
