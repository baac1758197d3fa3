"""PLaMo-2's tokenizer as llama.cpp runs it (GGUF model `plamo2`): the cheapest segmentation of
the text by token scores, with byte fallback.

Costs are integers: a token costs -round(score * 10^4) (halves away from zero); one whose score
is not finite, or rounds to -2*10^7 or less, is never used. Any single char may also stand alone
at the "unknown" cost 10^7; it then becomes the byte tokens of its UTF-8 bytes. After dropping a
leading U+FEFF, the text's best segmentation is found from its end: the best cost at a position
is the least, over the candidate pieces starting there, of the piece's cost plus the best cost
after it, the first candidate keeping a tie. The candidates at a position, in order:

- llama.cpp keeps a "state" per position: the longest string starting there that is a token or
  the end of one (a suffix). The state at i is char i followed by the longest state-prefix of the
  state at i+1 that makes, with it, such a string again; the prefixes of the state at i+1 are
  tried from the longest down, among those that are tokens or suffixes themselves, then the
  empty one (char i alone). The state is empty when none fits;
- the candidates are the tokens among the state's prefixes, longest first, then the lone char.

Where every token scores above -1000 this is the cheapest segmentation, ties going to the longest
first piece. A token scoring exactly -1000 (llama.cpp's converter gives that score to the
"[PADn]" fillers) costs the same as the unknown char, and llama.cpp takes such a cost for the end
of the list: the candidates stop after that token, and so does the search for the next state
(leaving it empty when nothing longer fitted). That is kept, so texts holding those tokens' text
encode as llama.cpp encodes them.

No tokenizer.json (or other format but GGUF's `plamo2`) holds this model: `to_dict` raises
UnsupportedConversion.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import UnsupportedConversion
from .base import Token, VocabLookup

UNKNOWN_COST = 10_000_000
UNUSABLE_COST = 20_000_000  # a token costing this much or more is never a candidate
BOM = "\ufeff"


def token_cost(score: float) -> int | None:
    """The integer cost of a score (None: never used)."""
    if not math.isfinite(score):
        return None
    scaled = abs(score * 1e4)
    rounded = math.floor(scaled) + (scaled - math.floor(scaled) >= 0.5)  # exact: halves away from zero
    cost = -rounded if score >= 0 else rounded
    return None if cost >= UNUSABLE_COST else cost


class Plamo2(VocabLookup):
    """The cheapest segmentation by `scores`, with the `byte_ids` (one per byte value) for chars
    no token covers. Byte tokens (`byte_tokens`, else the `byte_ids`) take no part in the segmentation."""

    def __init__(self, pieces: list[str], scores: list[float], byte_ids: list[int],
                 byte_tokens: frozenset[int] | None = None):
        self.pieces = list(pieces)
        self.scores = list(scores)
        self.byte_ids = list(byte_ids)
        self.vocab_r: dict[int, str] = dict(enumerate(self.pieces))
        self.vocab: dict[str, int] = {piece: i for i, piece in enumerate(self.pieces)}
        byte_set = frozenset(self.byte_ids) if byte_tokens is None else byte_tokens
        # every token text and every suffix of one -> (token id or None, cost or None); a later
        # token of the same text replaces an earlier one
        self.known: dict[str, tuple[int | None, int | None]] = {}
        for token_id, piece in enumerate(self.pieces):
            if token_id in byte_set:
                continue
            for start in range(1, len(piece)):
                self.known.setdefault(piece[start:], (None, None))
            self.known[piece] = (token_id, token_cost(self.scores[token_id]))

    def _known_prefixes(self, state: str) -> list[str]:
        """The prefixes of `state` that are tokens or suffixes, longest first."""
        return [state[:length] for length in range(len(state), 0, -1) if state[:length] in self.known]

    def _next_state(self, char: str, state: str) -> str:
        """The state before `char`, from the state after it."""
        for prefix in self._known_prefixes(state):
            if char + prefix in self.known:
                return char + prefix
            if self.known[prefix][1] == UNKNOWN_COST:
                return ""
        return char if char in self.known else ""

    def _candidates(self, state: str) -> list[tuple[int, int | None, int]]:
        """(length in chars, token id or None for the lone char, cost) of the pieces at a position."""
        found = []
        for prefix in self._known_prefixes(state):
            token_id, cost = self.known[prefix]
            if cost is None:
                continue
            found.append((len(prefix), token_id, cost))
            if cost == UNKNOWN_COST:
                return found
        return found + [(1, None, UNKNOWN_COST)]

    def segment(self, text: str) -> list[tuple[int, int | None]]:
        """The best segmentation of `text` (a leading U+FEFF dropped by the caller): (length in
        chars, token id or None for a lone char) per piece."""
        best: list[int | None] = [None] * len(text) + [0]
        choice: list[tuple[int, int | None]] = [(1, None)] * len(text)
        state = ""
        for i in range(len(text) - 1, -1, -1):
            state = self._next_state(text[i], state)
            for length, token_id, cost in self._candidates(state):
                total = best[i + length] + cost
                if best[i] is None or total < best[i]:
                    best[i], choice[i] = total, (length, token_id)
        pieces = []
        position = 0
        while position < len(text):
            pieces.append(choice[position])
            position += choice[position][0]
        return pieces

    def tokenize(self, sequence: str) -> list[Token]:
        """The tokens of `sequence`, offsets in UTF-8 bytes; a lone char as its byte tokens."""
        skipped = len(BOM.encode()) if sequence.startswith(BOM) else 0
        text = sequence[1:] if skipped else sequence
        tokens = []
        start = skipped
        position = 0
        for length, token_id in self.segment(text):
            piece = text[position:position + length]
            data = piece.encode("utf-8", "surrogatepass")
            if token_id is not None:
                tokens.append(Token(token_id, self.pieces[token_id], (start, start + len(data))))
            else:
                for offset, byte in enumerate(data):
                    byte_id = self.byte_ids[byte]
                    tokens.append(Token(byte_id, self.pieces[byte_id], (start + offset, start + offset + 1)))
            start += len(data)
            position += length
        return tokens

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json (and every format but GGUF's `plamo2`) has no such model."""
        raise UnsupportedConversion("model: PLaMo-2's cheapest segmentation (integer costs, byte fallback) has "
                                    "no form in tokenizer.json, .model, .tiktoken or tekken.json (only a GGUF "
                                    "`plamo2` model holds it)")
