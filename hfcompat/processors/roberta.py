"""RobertaProcessing: `<s> A </s>`, pairs `<s> A </s> </s> B </s>`, with ByteLevel's offset trimming."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..encoding import Encoding
from ..pipeline.fields import as_bool, field_value, require_object
from .base import PostProcessor, SingleLayout, SpecialPair, surrounded, trim_all
from .bert import read_special_pair, surround


@dataclass
class RobertaProcessing(PostProcessor):
    """`<s> A </s>`, pair `<s> A </s> </s> B </s>`; all type ids 0; optional offset trimming."""

    sep: SpecialPair = ("</s>", 2)
    cls: SpecialPair = ("<s>", 0)
    trim_offsets: bool = True
    add_prefix_space: bool = True

    def added_tokens(self, is_pair: bool) -> int:
        """2 for a sequence, 4 for a pair."""
        return 4 if is_pair else 2

    def layout(self, add_special_tokens: bool) -> SingleLayout:
        """CLS, the sequence, SEP; its offsets trimmed when asked."""
        return surrounded(self.cls, self.sep, add_special_tokens, self.trim_offsets)

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        """Trim offsets, zero the type ids (even without specials), then add the specials."""
        if self.trim_offsets:
            trim_all(encodings, self.add_prefix_space)
        for encoding in encodings:
            encoding.type_ids = [0] * len(encoding.ids)
        if not add_special_tokens:
            return encodings
        result = []
        for index, encoding in enumerate(encodings):
            result.append(self._wrap(encoding, index))
            result[-1].overflowing = [self._wrap(o, index) for o in encoding.overflowing]
        return result

    def _wrap(self, encoding: Encoding, index: int) -> Encoding:
        """The specials of sequence `index` around one encoding."""
        zeros = [0] * (len(encoding.ids) + 2)
        if index == 0:
            return surround(encoding, self.cls, self.sep, zeros, 0)
        return surround(encoding, self.sep, self.sep, zeros, 1)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": "RobertaProcessing", "sep": list(self.sep), "cls": list(self.cls),
                "trim_offsets": self.trim_offsets, "add_prefix_space": self.add_prefix_space}

    @classmethod
    def from_dict(cls, data: Any) -> "RobertaProcessing":
        """Read the tokenizer.json form (`type` is not checked, as in HF)."""
        data = require_object(data, "a post-processor")
        return cls(sep=read_special_pair(data, "sep"), cls=read_special_pair(data, "cls"),
                   trim_offsets=as_bool(field_value(data, "trim_offsets"), "trim_offsets"),
                   add_prefix_space=as_bool(field_value(data, "add_prefix_space"),
                                            "add_prefix_space"))
