"""Pre-tokenizers: cut each normalized segment into the pieces the model tokenizes.

One module per family, as in HF's crate: the PreTokenizer base classes, the split behaviours
and the helpers the pre-tokenizers share (base.py); BertPreTokenizer, Whitespace,
WhitespaceSplit, Punctuation and Digits (bert.py); Split and CharDelimiterSplit (split.py);
Metaspace (metaspace.py); ByteLevel and `to_byte_level` (byte_level.py); UnicodeScripts and its
script table (unicode_scripts.py); FixedLength (fixed_length.py). Sequence and `from_dict` are
here.

The folder also holds the translation of tiktoken's (fancy-regex) patterns to Python `regex`
(tiktoken_pattern.py), and Moses tokenization on sacremoses (moses.py: transformers' XLM, Flaubert, FSMT
and BioGpt classes; no tokenizer.json form).

Each class follows HF `tokenizers` 0.23.3 exactly (pieces, offsets, JSON form):
`pre_tokenize(pts)` splits a PreTokenizedString in place, `pre_tokenize_str(text)` returns
`[(piece, (start, end))]` with char offsets into `text` like the Python binding, `to_dict()`
gives the tokenizer.json object, and the module-level `from_dict` reads one back.

The character classes are HF's: Rust's `char::is_whitespace` (White_Space) and
`char::is_numeric` (N*), the `unicode_categories` crate's punctuation (an older Unicode than
the `regex` module's), Rust `regex`'s `\\w` and `\\s` for Whitespace, Oniguruma for Split and
the GPT-2 pattern, and sentencepiece's script table (Unicode 9) for UnicodeScripts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from .._lazy import lazy_names
from ..errors import FormatError
from ..pipeline.fields import component_list, field_value, require_object
from ..pipeline.normalized import PreTokenizedString
from .base import (BEHAVIOR_FROM_JSON, BEHAVIOR_TO_JSON, PieceForm, PieceRoute, Pieces, PreTokenizer, SplitWise,
                   prefixed_alignments)

if TYPE_CHECKING:
    from .bert import BertPreTokenizer, Digits, Punctuation, Whitespace, WhitespaceSplit
    from .byte_level import GPT2_PATTERN, ByteLevel, to_byte_level
    from .fixed_length import FixedLength
    from .metaspace import PREPEND_SCHEMES, Metaspace
    from .split import CharDelimiterSplit, Split
    from .unicode_scripts import UnicodeScripts, script_of

# Each pre-tokenizer's module, imported when the pre-tokenizer is first used.
__getattr__ = lazy_names(__name__, {
    "BertPreTokenizer": "bert", "Digits": "bert", "Punctuation": "bert", "Whitespace": "bert",
    "WhitespaceSplit": "bert", "GPT2_PATTERN": "byte_level", "ByteLevel": "byte_level", "to_byte_level": "byte_level",
    "FixedLength": "fixed_length", "PREPEND_SCHEMES": "metaspace", "Metaspace": "metaspace",
    "CharDelimiterSplit": "split", "Split": "split", "UnicodeScripts": "unicode_scripts",
    "script_of": "unicode_scripts"})

__all__ = [
    "PreTokenizer", "BertPreTokenizer", "ByteLevel", "Whitespace", "WhitespaceSplit", "Metaspace",
    "Split", "Digits", "Punctuation", "CharDelimiterSplit", "UnicodeScripts", "FixedLength",
    "Sequence", "from_dict", "BEHAVIOR_TO_JSON", "BEHAVIOR_FROM_JSON", "GPT2_PATTERN",
    "PieceForm", "PieceRoute", "Pieces", "PREPEND_SCHEMES", "SplitWise", "prefixed_alignments", "script_of", "to_byte_level",
]


@dataclass
class Sequence(PreTokenizer):
    """Several pre-tokenizers, applied in order."""

    pretokenizers: list[PreTokenizer] = field(default_factory=list)
    TYPE: ClassVar[str] = "Sequence"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Run each pre-tokenizer in turn."""
        for pre_tokenizer in self.pretokenizers:
            pre_tokenizer.pre_tokenize(pts)

    def is_context_free(self) -> bool:
        """When every step is."""
        return all(p.is_context_free() for p in self.pretokenizers)

    def piece_route(self) -> PieceRoute | None:
        """The first step's pieces, when the later steps treat each piece by its text alone: the
        one step's route; byte-level chars for words then mapped by ByteLevel (Llama 3's); a
        mark then the word for words then prefixed by Metaspace (T5's); otherwise whatever the
        later steps make of a piece."""
        if not self.pretokenizers or not all(p.is_context_free() for p in self.pretokenizers[1:]):
            return None
        first = self.pretokenizers[0].piece_route()
        if first is None or len(self.pretokenizers) == 1:
            return first
        if len(self.pretokenizers) == 2:
            words, second = self.pretokenizers
            if first.form is PieceForm.TEXT and type(second) is pre_tokenizer_class("ByteLevel") \
                    and not second.use_regex and not second.add_prefix_space:
                return PieceRoute(PieceForm.BYTES, first.find, scanner=first.scanner)
            if type(words) is pre_tokenizer_class("WhitespaceSplit") \
                    and isinstance(second, pre_tokenizer_class("Metaspace")) and second.prepend_scheme == "always":
                return PieceRoute(PieceForm.PREFIXED, first.find, mark=second.replacement)
        return PieceRoute(PieceForm.SPLITS, first.find)

    def to_dict(self) -> dict[str, Any]:
        """{"type": "Sequence", "pretokenizers": [...]}."""
        return {"type": self.TYPE, "pretokenizers": [p.to_dict() for p in self.pretokenizers]}

    @classmethod
    def from_dict(cls, data: dict) -> "Sequence":
        """Read the JSON form (pretokenizers is mandatory)."""
        return cls(component_list(data, "pretokenizers", from_dict))


# ----- reading tokenizer.json --------------------------------------------------------------


# The types HF builds without fields, and those read from their fields, each with its class's name.
_SIMPLE = ("BertPreTokenizer", "Whitespace", "WhitespaceSplit", "UnicodeScripts")
_READ = ("ByteLevel", "Metaspace", "Split", "Digits", "Punctuation", "CharDelimiterSplit", "FixedLength", "Sequence")


def pre_tokenizer_class(name: str) -> type[PreTokenizer]:
    """The pre-tokenizer class of this name, its module imported on first use."""
    found: type[PreTokenizer] = Sequence if name == "Sequence" else __getattr__(name)
    return found


def from_dict(data: Any) -> PreTokenizer:
    """Build a pre-tokenizer from its tokenizer.json object, dispatching on "type"."""
    data = require_object(data, "a pre-tokenizer")
    kind = field_value(data, "type")
    if not isinstance(kind, str):
        raise FormatError(f"expected a type name, got {kind!r}", field="type")
    if kind in _SIMPLE:
        return pre_tokenizer_class(kind)()
    if kind not in _READ:
        raise FormatError(f"unknown pre-tokenizer type {kind!r}", field="type")
    return pre_tokenizer_class(kind).from_dict(data)
