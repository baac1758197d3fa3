"""The post-processor of transformers' ByT5Tokenizer (and DiaTokenizer's, which adds no eos): `$A </s>`, pairs
`$A </s> $B </s>`, type ids all 0,
except that a sequence whose ids already end with the eos id gets no second one (its
_add_eos_if_not_present). Its special tokens take the spaces around them (lstrip, rstrip) but keep
their own text as token strings, where tokenizers' encodings show the text matched: this step names
them back. TemplateProcessing always adds the eos, so no file format holds this step: `to_dict`
raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..encoding import Encoding
from ..errors import UnsupportedConversion
from . import PostProcessor


def named(tokens: list[str], ids: list[int], names: dict[int, str]) -> list[str]:
    """The tokens with each special id's token string its own text."""
    return [names.get(token_id, token) for token_id, token in zip(ids, tokens)]


def with_eos(encoding: Encoding, eos: str | None, eos_id: int, names: dict[int, str]) -> Encoding:
    """The encoding with the eos token (if any) appended unless its ids end with it; type ids 0; specials named."""
    n = len(encoding.ids)
    added = 0 if eos is None or (encoding.ids and encoding.ids[-1] == eos_id) else 1
    sequence_id = next(iter(encoding.sequence_ranges), 0)
    return Encoding(encoding.ids + [eos_id] * added, [0] * (n + added), named(encoding.tokens, encoding.ids, names) + [eos] * added,
                    encoding.offsets + [(0, 0)] * added, [0] * n + [1] * added, [1] * (n + added),
                    encoding.word_ids + [None] * added, [], {sequence_id: (0, n)})


@dataclass
class ByT5Processing(PostProcessor):
    """Each sequence followed by `eos` (None: nothing) unless it already ends with it; the special ids in `names`
    named so."""

    eos: str | None
    eos_id: int
    names: dict[int, str]

    def added_tokens(self, is_pair: bool) -> int:
        """One eos per sequence (transformers counts it even where it is not added)."""
        if self.eos is None:
            return 0
        return 2 if is_pair else 1

    def process_encodings(self, encodings: list[Encoding], add_special_tokens: bool) -> list[Encoding]:
        """Each sequence with its eos (type ids all 0)."""
        if not add_special_tokens:
            for encoding in encodings:
                encoding.type_ids = [0] * len(encoding.ids)
                encoding.tokens = named(encoding.tokens, encoding.ids, self.names)
            return encodings
        return [with_eos(encoding, self.eos, self.eos_id, self.names) for encoding in encodings]

    def to_dict(self) -> dict[str, Any]:
        """Refused: TemplateProcessing would add the eos a second time."""
        raise UnsupportedConversion("post_processor: ByT5's eos, added only where the ids do not already end with "
                                    "it, has no form in tokenizer.json (TemplateProcessing always adds it)")
