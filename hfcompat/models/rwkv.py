"""RWKV's "world" tokenizer: greedy longest match over a trie of byte strings.

The vocabulary is a list of byte strings (one per id; not all of them UTF-8). Encoding walks the
text's UTF-8 bytes from the left: at each position it takes the longest token that the bytes
there begin with, emits it and goes on after it. There are no merges, scores, normalizer or
pre-tokenizer; llama.cpp (GGUF model `rwkv`) and RWKV's own TRIE_TOKENIZER both work this way.
When two ids hold the same bytes the later one is matched (llama.cpp's trie keeps the last).

Where no token starts with a byte (a vocabulary without all 256 single bytes), that byte becomes
the unknown token if there is one and is dropped otherwise: llama.cpp emits its unknown id there,
which is -1 (no token) for an RWKV file.

Token strings are the bytes in GPT-2's byte-level alphabet (as a byte-level BPE shows them), so
the ByteLevel decoder turns ids back into text. No file format but GGUF's `rwkv` holds this model:
`to_dict` raises UnsupportedConversion, which every writer but GGUF's meets first.
"""

from __future__ import annotations

from typing import Any

from ..errors import UnsupportedConversion
from ..pipeline.bytelevel import bytes_to_chars
from .base import Token, VocabLookup

PREFIX = -1  # the value of a byte string that begins tokens but is none itself


def prefix_table(pieces: list[bytes]) -> dict[bytes, int]:
    """Every token -> its id, and every shorter beginning of a token -> PREFIX (a trie as one dict)."""
    table: dict[bytes, int] = {}
    for piece in pieces:
        for length in range(1, len(piece)):
            table.setdefault(piece[:length], PREFIX)
    for token_id, piece in enumerate(pieces):
        table[piece] = token_id  # a later id with the same bytes replaces an earlier one
    return table


def longest_match(table: dict[bytes, int], data: bytes, start: int) -> tuple[int, int] | None:
    """(id, end) of the longest token that `data[start:]` begins with, or None."""
    found = None
    for end in range(start + 1, len(data) + 1):
        token_id = table.get(data[start:end])
        if token_id is None:
            break
        if token_id != PREFIX:
            found = (token_id, end)
    return found


class RWKV(VocabLookup):
    """Greedy longest-match tokenizer over the byte strings `pieces` (id = index)."""

    def __init__(self, pieces: list[bytes], unk_id: int | None = None):
        self.pieces = list(pieces)
        self.unk_id = unk_id
        self.vocab_r: dict[int, str] = {i: bytes_to_chars(piece) for i, piece in enumerate(self.pieces)}
        self.vocab: dict[str, int] = {token: i for i, token in self.vocab_r.items()}
        self.table = prefix_table(self.pieces)

    def tokenize(self, sequence: str) -> list[Token]:
        """The tokens of `sequence`, offsets in UTF-8 bytes."""
        data = sequence.encode("utf-8", "surrogatepass")
        tokens = []
        start = 0
        while start < len(data):
            found = longest_match(self.table, data, start)
            if found is None:
                if self.unk_id is not None:
                    tokens.append(Token(self.unk_id, self.vocab_r[self.unk_id], (start, start + 1)))
                start += 1
                continue
            token_id, end = found
            tokens.append(Token(token_id, self.vocab_r[token_id], (start, end)))
            start = end
        return tokens

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json (and every format but GGUF's `rwkv`) has no such model."""
        raise UnsupportedConversion("model: RWKV's greedy longest match over byte strings has no form in "
                                    "tokenizer.json, .model, .tiktoken or tekken.json (only a GGUF `rwkv` "
                                    "model holds it)")
