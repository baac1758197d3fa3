"""BertProcessing: `[CLS] A [SEP]`, pairs `[CLS] A [SEP] B [SEP]`; the surrounding step RobertaProcessing shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..encoding import Encoding
from ..errors import FormatError
from ..pipeline.fields import as_str, as_uint, field_value, require_object
from .base import PostProcessor, SingleLayout, SpecialPair, surrounded


def surround(encoding: Encoding, before: SpecialPair | None, after: SpecialPair,
              type_ids: list[int], sequence_id: int) -> Encoding:
    """A new encoding: optional `before` special, the tokens, then `after` special (no overflow)."""
    lead = 0 if before is None else 1
    n = len(encoding.ids)
    head_ids = [] if before is None else [before[1]]
    head_tokens = [] if before is None else [before[0]]
    return Encoding(
        head_ids + encoding.ids + [after[1]],
        type_ids,
        head_tokens + encoding.tokens + [after[0]],
        [(0, 0)] * lead + encoding.offsets + [(0, 0)],
        [1] * lead + [0] * n + [1],
        [1] * (n + lead + 1),
        [None] * lead + encoding.word_ids + [None],
        [],
        {sequence_id: (lead, lead + n)},
    )


def read_special_pair(data: dict, name: str) -> SpecialPair:
    """A `[token, id]` pair such as `"sep": ["[SEP]", 102]`."""
    value = field_value(data, name)
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise FormatError(f"expected [token, id], got {value!r}", field=name)
    return (as_str(value[0], name), as_uint(value[1], name))


@dataclass
class BertProcessing(PostProcessor):
    """`[CLS] A [SEP]`, pair `[CLS] A [SEP] B [SEP]` with type id 1 on `B [SEP]`."""

    sep: SpecialPair = ("[SEP]", 102)
    cls: SpecialPair = ("[CLS]", 101)

    def added_tokens(self, is_pair: bool) -> int:
        """2 for a sequence, 3 for a pair."""
        return 3 if is_pair else 2

    def layout(self, add_special_tokens: bool) -> SingleLayout:
        """CLS, the sequence, SEP."""
        return surrounded(self.cls, self.sep, add_special_tokens)

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        """Add CLS/SEP around the first sequence and SEP after the pair."""
        if not add_special_tokens:
            return encodings
        result = []
        for index, encoding in enumerate(encodings):
            result.append(self._wrap(encoding, index))
            result[-1].overflowing = [self._wrap(o, index) for o in encoding.overflowing]
        return result

    def _wrap(self, encoding: Encoding, index: int) -> Encoding:
        """The specials of sequence `index` around one encoding."""
        if index == 0:
            return surround(encoding, self.cls, self.sep, [0] + encoding.type_ids + [0], 0)
        return surround(encoding, None, self.sep, encoding.type_ids + [1], 1)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": "BertProcessing", "sep": list(self.sep), "cls": list(self.cls)}

    @classmethod
    def from_dict(cls, data: Any) -> "BertProcessing":
        """Read the tokenizer.json form (`type` is not checked, as in HF)."""
        data = require_object(data, "a post-processor")
        return cls(sep=read_special_pair(data, "sep"), cls=read_special_pair(data, "cls"))
