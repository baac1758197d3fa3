"""The post-processor of transformers' Python classes that put fixed ids before and after the sequences:
`prefix $A suffix`, pairs `prefix $A between $B suffix` (M2M100Tokenizer's language code then </s>, Speech2Text's,
Marian's </s>, PLBart's </s> and source language code, Bartpho's <s> $A </s> </s> $B </s>).

Their type ids follow transformers' generic rule (create_token_type_ids_from_sequences): with `first_split`,
the first len(prefix + $A + suffix) positions of a pair get 0 and the rest 1, however that cuts $B (bert_style
counting the special tokens); else every type id is 0, as they all are without special tokens. TemplateProcessing gives one type id per sequence, so
no file format holds the first: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..encoding import Encoding
from ..errors import UnsupportedConversion
from . import PostProcessor


def _specials(tokens: list[tuple[str, int]]) -> Encoding:
    """An encoding of special tokens alone."""
    n = len(tokens)
    return Encoding([token_id for _, token_id in tokens], [0] * n, [token for token, _ in tokens], [(0, 0)] * n,
                    [1] * n, [1] * n, [None] * n, [], {})


def _joined(parts: list[Encoding], sequences: list[int]) -> Encoding:
    """The parts one after the other; `sequences`: the indices of the parts that are the input sequences."""
    joined = Encoding()
    for index, part in enumerate(parts):
        if index in sequences:
            joined.sequence_ranges[sequences.index(index)] = (len(joined.ids), len(joined.ids) + len(part.ids))
        for name in ("ids", "tokens", "offsets", "special_tokens_mask", "attention_mask", "word_ids"):
            getattr(joined, name).extend(getattr(part, name))
    return joined


@dataclass
class PrefixSuffixProcessing(PostProcessor):
    """`prefix` (token, id) pairs before the sequences, `suffix` after them (an id None until `fill_ids`);
    `first_split`: transformers' bert_style type ids, else all 0."""

    prefix: list[tuple[str, int]]
    suffix: list[tuple[str, int]]
    first_split: bool = True
    between: list[tuple[str, int]] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)

    def fill_ids(self, token_to_id: Callable[[str], int | None]) -> "PrefixSuffixProcessing":
        """This processor with each id not known when it was built (None: a token the class adds itself on
        loading) looked up."""
        def filled(tokens: list[tuple[str, int | None]]) -> list[tuple[str, int | None]]:
            return [(token, token_to_id(token) if token_id is None else token_id) for token, token_id in tokens]

        return replace(self, prefix=filled(self.prefix), suffix=filled(self.suffix), between=filled(self.between))

    def added_tokens(self, is_pair: bool) -> int:
        """The prefix and suffix, and between a pair's sequences what comes there."""
        return len(self.prefix) + len(self.suffix) + (len(self.between) if is_pair else 0)

    def process_encodings(self, encodings: list[Encoding], add_special_tokens: bool) -> list[Encoding]:
        """The sequences between prefix and suffix, as one encoding with transformers' type ids and the ids in
        `names` named so (an added token taking spaces shows its own text, as convert_ids_to_tokens does)."""
        if not add_special_tokens:  # transformers' type ids are then all 0
            joined = _joined(encodings, list(range(len(encodings))))
            split = len(joined.ids)
        else:
            middle = [encodings[0], _specials(self.between), encodings[1]] if len(encodings) == 2 else encodings
            parts = [_specials(self.prefix), *middle, _specials(self.suffix)]
            joined = _joined(parts, [1, 3] if len(encodings) == 2 else [1])
            first = len(self.prefix) + len(encodings[0].ids) + len(self.suffix)
            split = first if self.first_split and len(encodings) == 2 else len(joined.ids)
        joined.type_ids = [0] * min(split, len(joined.ids)) + [1] * max(len(joined.ids) - split, 0)
        joined.tokens = [self.names.get(token_id, token) for token_id, token in zip(joined.ids, joined.tokens)]
        return [joined]

    def to_dict(self) -> dict[str, Any]:
        """Refused when a pair's type ids cut the second sequence (TemplateProcessing cannot); never written."""
        raise UnsupportedConversion("post_processor: transformers' prefix/suffix special tokens with its generic "
                                    "type ids (the first len(prefix + A + suffix) positions 0) have no form in "
                                    "tokenizer.json (TemplateProcessing gives one type id per sequence)")
