"""The decode of transformers' CpmAntTokenizer: its pad, eos and bos ids dropped, the tokens joined as they are.

The class drops negative ids and those of its pad, eos and bos tokens whatever skip_special_tokens says, and
joins the tokens with nothing between (its space and line ids read as " " and "\\n"). No file format holds the
dropping of ids, so `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import UnsupportedConversion
from . import Decoder


@dataclass
class DroppedIdsText(Decoder):
    """`dropped` ids (and negative ones) left out, the other tokens joined."""

    dropped: frozenset[int] = field(default_factory=frozenset)

    def prepare_ids(self, ids: list[int]) -> list[int]:
        """The ids but the dropped ones and negative ones."""
        return [i for i in ids if i >= 0 and i not in self.dropped]

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The one text of all the tokens."""
        return ["".join(tokens)]

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json's decoders see tokens, not the ids this drops."""
        raise UnsupportedConversion("decoder: CpmAntTokenizer's decode (its pad, eos and bos ids always dropped, "
                                    "tokens joined) has no form in tokenizer.json")
