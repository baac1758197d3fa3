"""transformers' VitsTokenizer text preparation, run on the whole text before its special tokens are found.

With `normalize`, the text is scanned left to right: where a vocabulary entry starts (the first in vocabulary order
that matches, not the longest) it is kept as it is, any other character is lowercased (str.lower of the
character). For Romanian ("ron") "ț" (comma below) becomes "ţ" (cedilla). Without phonemizing, a normalized text
then keeps only the characters in the vocabulary and is stripped (str.strip). tokenizer.json holds none of this:
`to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from ..pipeline.normalized import NormalizedString
from .base import Normalizer

ROMANIAN_COMMA_T = ("ț", "ţ")


@dataclass
class VitsText(Normalizer):
    """VITS's normalize_text (with `words`, in order), the Romanian "ț", then the filter to `kept` and the strip."""

    words: tuple[str, ...] | None
    romanian: bool = False
    kept: frozenset[str] | None = None
    TYPE: ClassVar[str] = ""
    _by_first: dict[str, list[str]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Index the words by first character, keeping their order."""
        for word in self.words or ():
            if word:
                self._by_first.setdefault(word[0], []).append(word)

    def normalize(self, ns: NormalizedString) -> None:
        """Rewrite in place: what each original character becomes (possibly nothing, possibly several)."""
        pieces = self._lowered(ns.normalized) if self.words is not None else list(ns.normalized)
        if self.romanian:
            pieces = [piece.replace(*ROMANIAN_COMMA_T) for piece in pieces]
        if self.kept is not None:
            pieces = _stripped(["".join(c for c in piece if c in self.kept) for piece in pieces])
        ns.expand_chars(pieces)

    def _lowered(self, text: str) -> list[str]:
        """Each character's piece: vocabulary entries kept, other characters lowercased."""
        pieces: list[str] = []
        i = 0
        while i < len(text):
            word = next((w for w in self._by_first.get(text[i], ()) if text.startswith(w, i)), None)
            if word is None:
                pieces.append(text[i].lower())
                i += 1
            else:
                pieces += list(word)
                i += len(word)
        return pieces

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json has no first-match vocabulary scan."""
        raise UnsupportedConversion("normalizer: transformers' VitsTokenizer text preparation (vocabulary entries "
                                    "kept, the rest lowercased, characters outside the vocabulary dropped) has no "
                                    "form in tokenizer.json")


def _stripped(pieces: list[str]) -> list[str]:
    """The pieces with the whitespace at both ends of their joined text removed (str.strip)."""
    for order in (range(len(pieces)), range(len(pieces) - 1, -1, -1)):
        for index in order:
            piece = pieces[index]
            kept = piece.lstrip() if order.step == 1 else piece.rstrip()
            pieces[index] = kept
            if kept:
                break
    return pieces
