"""Decoders: turn the list of token strings back into text, as HF `tokenizers` 0.23.3 does.

One module per family, as in HF's crate: the Decoder base and the clean-up rules (base.py), ByteLevel
(byte_level.py), WordPiece (wordpiece.py), Metaspace (metaspace.py), BPEDecoder (bpe.py), ByteFallback
(byte_fallback.py), Fuse (fuse.py), Strip (strip.py), Replace (replace.py), CTC (ctc.py); what transformers'
classes do to decoded text (transformers_text.py). Sequence and `from_dict` are here.

The folder also holds bytes-to-text decoding with tiktoken's error modes and a streaming
decoder (utf8.py), transformers' byte-class decode (byte_chars.py) and Moses detokenization on sacremoses
(moses.py).

Every decoder maps a token list to a token list (`decode_chain`) so that a `Sequence` can chain
them; `decode` concatenates the final list. The per-token structure matters: several decoders
(WordPiece, Metaspace, Strip, BPEDecoder, Replace) act on each token separately, so the boundaries
another decoder leaves behind change the result.

`from_dict` reads the tokenizer.json "decoder" object with HF's rules: a known "type" selects the
decoder and its mandatory fields; an object without a known "type" is tried, in HF's order, as each
decoder that can be read untagged (BPEDecoder, WordPiece, CTC, Replace, Strip).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from .._lazy import lazy_names
from ..errors import FormatError
from ..pipeline.fields import component_list, require_object
from .base import REPLACEMENT_CHAR, Decoder, clean_up_tokenization, wordpiece_cleanup

if TYPE_CHECKING:
    from .bpe import BPEDecoder
    from .byte_fallback import ByteFallback, SentencePieceByteFallback
    from .byte_level import ByteLevel
    from .ctc import CTC
    from .fuse import Fuse
    from .metaspace import Metaspace
    from .replace import Replace
    from .strip import Strip
    from .transformers_text import CleanedUp, RewrittenText, SpecialTokenRuns
    from .wordpiece import WordPiece

# Each decoder's module, imported when the decoder is first used.
__getattr__ = lazy_names(__name__, {
    "BPEDecoder": "bpe", "ByteFallback": "byte_fallback", "SentencePieceByteFallback": "byte_fallback",
    "ByteLevel": "byte_level", "CTC": "ctc", "Fuse": "fuse", "Metaspace": "metaspace", "Replace": "replace",
    "Strip": "strip", "CleanedUp": "transformers_text", "RewrittenText": "transformers_text",
    "SpecialTokenRuns": "transformers_text", "WordPiece": "wordpiece"})

__all__ = ["Decoder", "REPLACEMENT_CHAR", "clean_up_tokenization", "wordpiece_cleanup", "BPEDecoder", "ByteFallback",
           "SentencePieceByteFallback", "ByteLevel", "CTC", "Fuse", "Metaspace", "Replace", "Strip", "CleanedUp",
           "RewrittenText", "SpecialTokenRuns", "WordPiece", "Sequence", "DECODER_TYPES", "from_dict"]


@dataclass
class Sequence(Decoder):
    """Sequence: each decoder works on the token list the previous one returned."""

    decoders: list[Decoder] = field(default_factory=list)
    TYPE: ClassVar[str] = "Sequence"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Run the decoders in order."""
        for decoder in self.decoders:
            tokens = decoder.decode_chain(tokens)
        return tokens

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "decoders": [decoder.to_dict() for decoder in self.decoders]}

    @classmethod
    def from_dict(cls, data: dict) -> "Sequence":
        """Read the tokenizer.json form (decoders is mandatory)."""
        return cls(component_list(data, "decoders", from_dict))


# The "type" tags of tokenizer.json, each with its class's name.
DECODER_TYPES: dict[str, str] = {
    "ByteLevel": "ByteLevel", "WordPiece": "WordPiece", "Metaspace": "Metaspace", "BPEDecoder": "BPEDecoder",
    "ByteFallback": "ByteFallback", "Fuse": "Fuse", "Strip": "Strip", "Replace": "Replace", "CTC": "CTC",
    "Sequence": "Sequence",
}


# The decoders HF can read from an object without a known "type", in the order it tries them.
_UNTAGGED_ORDER = ("BPEDecoder", "WordPiece", "CTC", "Replace", "Strip")


def decoder_class(name: str) -> type[Decoder]:
    """The decoder class of this name, its module imported on first use."""
    found: type[Decoder] = Sequence if name == "Sequence" else __getattr__(name)
    return found


def from_dict(data: Any) -> Decoder:
    """Build a decoder from its tokenizer.json form."""
    require_object(data, "a decoder")
    kind = data.get("type")
    name = DECODER_TYPES.get(kind) if isinstance(kind, str) else None
    if name is not None:
        return decoder_class(name).from_dict(data)
    for candidate in _UNTAGGED_ORDER:
        try:
            return decoder_class(candidate).from_dict(data)
        except FormatError:
            continue
    known = ", ".join(DECODER_TYPES)
    if "type" not in data:
        raise FormatError(f"missing decoder type (one of {known})", field="type")
    raise FormatError(f"unknown decoder type {kind!r} (expected one of {known})", field="type")
