"""BPE as transformers' Python classes XLM, Flaubert, FSMT and BioGpt run it over whole words: merges on strings,
the vocabulary consulted only after.

A word becomes its characters with "</w>" glued to the last one, and the merges of subword-nmt's loop join them
(models/subword_nmt.py: the best-ranked adjacent pair at every place it occurs, again and again); unlike
subword-nmt's classes, the symbols are the tokens as they are ("low", "er</w>"). Each is looked up among the
added tokens once bound to them (`bind_added_vocabulary`), then in the vocabulary, else it takes the unk token's
id from the vocabulary.

This is not HF tokenizers' BPE (models/bpe.py), which looks characters up first and merges ids: here a
character outside the vocabulary still merges, a merge may make a string the vocabulary lacks (its id is
then unk's), a pair listed twice keeps its later rank, and a pair's every occurrence merges before the next
rank is looked at. Decode may read ids through another vocabulary (FSMT's target one). No file format holds
this model: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from typing import Any

from ..errors import TokenizationError, UnsupportedConversion
from ..pipeline.added_vocabulary import AddedVocabulary
from .base import Token, VocabLookup
from .subword_nmt import END_OF_WORD, merged_symbols


class PairRankBPE(VocabLookup):
    """Merges by `ranks` (models/subword_nmt.py's merge_ranks) over strings, then lookup (see the module
    docstring); `decode_vocab` names the ids decode reads, when not `vocab`."""

    def __init__(self, vocab: dict[str, int], ranks: dict[tuple[str, str], int], unk_token: str,
                 decode_vocab: dict[str, int] | None = None) -> None:
        self.vocab = vocab
        self.ranks = ranks
        self.unk_token = unk_token
        self.vocab_r = {token_id: token for token, token_id in (decode_vocab or vocab).items()}
        self.added = AddedVocabulary()
        self.cache: dict[str, list[str]] = {}

    def bind_added_vocabulary(self, added: AddedVocabulary) -> None:
        """Look symbols up among these added tokens first (the tokenizer's, once loading added them all)."""
        self.added = added

    def symbols(self, word: str) -> list[str]:
        """The strings the merges leave of `word` (its last one ending with "</w>"), remembered."""
        found = self.cache.get(word)
        if found is None:
            found = self.cache[word] = merged_symbols([*word[:-1], word[-1] + END_OF_WORD], self.ranks)
        return found

    def tokenize(self, sequence: str) -> list[Token]:
        """The tokens of one word, offsets in UTF-8 bytes of the word ("</w>" covers nothing)."""
        tokens = []
        start = 0
        symbols = self.symbols(sequence)
        for index, symbol in enumerate(symbols):
            text = symbol[:-len(END_OF_WORD)] if index == len(symbols) - 1 else symbol
            end = start + len(text.encode("utf-8", "surrogatepass"))
            token_id = self.added.token_to_id.get(symbol, self.vocab.get(symbol))
            if token_id is None:
                symbol, token_id = self.unk_token, self._unk_id()
            tokens.append(Token(token_id, symbol, (start, end)))
            start = end
        return tokens

    def _unk_id(self) -> int:
        """The unk token's id in the vocabulary (transformers looks it up there, not among the added tokens)."""
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
