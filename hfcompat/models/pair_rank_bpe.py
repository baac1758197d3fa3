"""BPE as transformers' Python classes run it over whole words (XLM, Flaubert, FSMT, BioGpt): merges on strings,
the vocabulary consulted only after.

A word becomes its characters with the end-of-word suffix ("</w>") glued to the last one. While some adjacent
pair is in the merge table, the pair of lowest rank merges at every place it occurs, left to right; a word of
one symbol stops. Each resulting symbol is then looked up in the vocabulary, the unk token's id when absent.

This is not HF tokenizers' BPE (models/bpe.py), which looks characters up first and merges ids: here a
character outside the vocabulary still merges, a merge may make a string the vocabulary lacks (its id is
then unk's), a pair listed twice keeps its later rank, and a pair's every occurrence merges before the next
rank is looked at. Decode may read ids through another vocabulary (FSMT's target one). No file format holds
this model: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from typing import Any

from ..errors import TokenizationError, UnsupportedConversion
from .base import Token, VocabLookup


def merged_once(word: list[str], first: str, second: str) -> list[str]:
    """`word` with every (first, second) pair, left to right, made one symbol."""
    merged: list[str] = []
    i = 0
    while i < len(word):
        if i + 1 < len(word) and word[i] == first and word[i + 1] == second:
            merged.append(first + second)
            i += 2
        else:
            merged.append(word[i])
            i += 1
    return merged


class PairRankBPE(VocabLookup):
    """Merges by pair rank over strings, then vocabulary lookup (see the module docstring)."""

    def __init__(self, vocab: dict[str, int], merges: list[tuple[str, ...]], unk_token: str,
                 suffix: str = "</w>", decode_vocab: dict[str, int] | None = None) -> None:
        self.vocab = vocab
        self.ranks: dict[tuple[str, ...], int] = {pair: rank for rank, pair in enumerate(merges)}
        self.unk_token = unk_token
        self.suffix = suffix
        self.vocab_r = {token_id: token for token, token_id in (decode_vocab or vocab).items()}
        self.cache: dict[str, list[str]] = {}

    def symbols(self, word: str) -> list[str]:
        """The strings the merges leave of `word` (its last one ending with the suffix)."""
        found = self.cache.get(word)
        if found is None:
            found = self._merged(list(word[:-1]) + [word[-1] + self.suffix])
            self.cache[word] = found
        return found

    def _merged(self, word: list[str]) -> list[str]:
        """Merge the lowest-ranked pair present until none is in the table or one symbol is left."""
        unranked = len(self.ranks)
        while len(word) > 1:
            first, second = min(zip(word, word[1:]), key=lambda pair: self.ranks.get(pair, unranked))
            if (first, second) not in self.ranks:
                break
            word = merged_once(word, first, second)
        return word

    def tokenize(self, sequence: str) -> list[Token]:
        """The tokens of one word, offsets in UTF-8 bytes of the word (the suffix covers nothing)."""
        tokens = []
        start = 0
        symbols = self.symbols(sequence)
        for index, symbol in enumerate(symbols):
            text = symbol[:-len(self.suffix)] if index == len(symbols) - 1 and self.suffix else symbol
            end = start + len(text.encode("utf-8", "surrogatepass"))
            token_id = self.vocab.get(symbol)
            if token_id is None:
                symbol, token_id = self.unk_token, self._unk_id()
            tokens.append(Token(token_id, symbol, (start, end)))
            start = end
        return tokens

    def _unk_id(self) -> int:
        """The unk token's id in the vocabulary (transformers looks it up there too)."""
        token_id = self.vocab.get(self.unk_token)
        if token_id is None:
            raise TokenizationError(f"a word piece is not in the vocabulary and neither is the unk token "
                                    f"{self.unk_token!r} (transformers gives it the id None)")
        return token_id

    def clear_cache(self) -> None:
        """Forget the merged words."""
        self.cache.clear()

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json's BPE looks characters up before merging."""
        raise UnsupportedConversion("model: transformers' word BPE (merges on strings, vocabulary looked up after, "
                                    "as XLM/FSMT/BioGpt/Flaubert run it) has no form in tokenizer.json")
