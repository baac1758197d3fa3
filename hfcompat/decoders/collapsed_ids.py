"""The CTC step of transformers' ParakeetTokenizer and LasrTokenizer: ids collapsed before decoding.

Their decode collapses each run of equal ids into one and drops the pad id (CTC's blank) before anything else,
so before special tokens are skipped: "a <pad> a" decodes as "a a", "a a" as "a". Then the tokens go through the
tokenizer's own decoder. tokenizer.json cannot hold an id step: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from .base import Decoder


@dataclass
class CollapsedIds(Decoder):
    """`inner` (None: tokens joined with spaces) after runs of equal ids collapse and `blank_id` is dropped."""

    inner: Decoder | None
    blank_id: int | None
    TYPE: ClassVar[str] = ""

    def prepare_ids(self, ids: list[int]) -> list[int]:
        """One id per run of equal ids, without the blank."""
        return [token_id for token_id, _ in itertools.groupby(ids) if token_id != self.blank_id]

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The inner decoder's tokens (the tokens joined with spaces without one)."""
        return self.inner.decode_chain(tokens) if self.inner is not None else [" ".join(tokens)]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no decoder of tokenizer.json works on ids."""
        raise UnsupportedConversion("decoder: repeated ids collapse and the pad id is dropped before decoding (CTC "
                                    "output, as transformers' Parakeet and Lasr tokenizers decode), which no "
                                    "tokenizer.json decoder does")
