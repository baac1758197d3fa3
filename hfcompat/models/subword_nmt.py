"""subword-nmt / fastBPE byte-pair encoding, as transformers' CTRL, BlenderbotSmall, PhoBERT and BERTweet
tokenizers run it.

A word is cut into its characters, the last one marked with "</w>" (the end of the word). The pair of
adjacent symbols whose merge comes first in the merges file is joined everywhere in the word, left to right,
until no adjacent pair is a merge. Every symbol but the last then ends with "@@" (the word goes on), and the
last loses its "</w>": "lower" -> "low@@", "er". A one-character word is its own token. Each subword's id is
its vocabulary entry, else the unknown token's; once bound to the tokenizer's added tokens
(`bind_added_vocabulary`), a subword that is an added token takes that token's id, and an id that is an added
token's reads as that token, as transformers' Python tokenizers look them up.

How a text becomes words is the class's (a `WordSplitter`, pre_tokenizers/subword_nmt_words.py). No file
format holds this model (tokenizer.json's BPE marks a word's end, not its continuation), so `to_dict`
raises UnsupportedConversion.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from ..errors import TokenizationError, UnsupportedConversion
from ..pipeline.added_vocabulary import AddedVocabulary
from .base import Token, VocabLookup

END_OF_WORD = "</w>"
CONTINUATION = "@@"
# A text's words with the char span each covers in it (a rewritten word covers the text it came from).
Word = tuple[str, int, int]
WordSplitter = Callable[[str], list[Word]]


def merge_ranks(merges: Iterable[tuple[str, ...]]) -> dict[tuple[str, str], int]:
    """Each merge pair's rank: its line's position among the merges (a pair listed twice keeps its last; a line
    without exactly two symbols takes a rank no pair reaches)."""
    return {pair: rank for rank, pair in enumerate(merges) if len(pair) == 2}


def merged_symbols(symbols: list[str], ranks: dict[tuple[str, str], int]) -> list[str]:
    """The symbols once the best-ranked adjacent pair is joined, again and again, until no pair is a merge."""
    while len(symbols) > 1:
        ranked = [(ranks[pair], pair) for pair in zip(symbols, symbols[1:]) if pair in ranks]
        if not ranked:
            break
        first, second = min(ranked)[1]
        joined: list[str] = []
        index = 0
        while index < len(symbols):
            if index + 1 < len(symbols) and symbols[index] == first and symbols[index + 1] == second:
                joined.append(first + second)
                index += 2
            else:
                joined.append(symbols[index])
                index += 1
        symbols = joined
    return symbols


def subwords(word: str, ranks: dict[tuple[str, str], int]) -> list[str]:
    """A word's subwords: "@@" after each but the last, the last without its "</w>"."""
    if len(word) < 2:
        return [word]
    symbols = merged_symbols([*word[:-1], word[-1] + END_OF_WORD], ranks)
    return [symbol + CONTINUATION for symbol in symbols[:-1]] + [symbols[-1][: -len(END_OF_WORD)]]


class SubwordNmt(VocabLookup):
    """Words (the class's `split_words`) into subwords (`ranks`), ids from `vocab` with `unk_token`'s for the
    rest; `lowercase_lookup` looks a subword up lowercased (BlenderbotSmall)."""

    def __init__(self, vocab: dict[str, int], ranks: dict[tuple[str, str], int], unk_token: str | None,
                 split_words: WordSplitter, lowercase_lookup: bool = False):
        self.vocab = vocab
        self.vocab_r = {token_id: token for token, token_id in vocab.items()}
        self.ranks = ranks
        self.unk_token = unk_token
        self.split_words = split_words
        self.lowercase_lookup = lowercase_lookup
        self.added = AddedVocabulary()
        self._subwords: dict[str, list[str]] = {}

    def bind_added_vocabulary(self, added: AddedVocabulary) -> None:
        """Look subwords up among these added tokens first (the tokenizer's, once loading added them all)."""
        self.added = added

    def word_subwords(self, word: str) -> list[str]:
        """`subwords` of one word, remembered."""
        found = self._subwords.get(word)
        if found is None:
            found = self._subwords[word] = subwords(word, self.ranks)
        return found

    def subword_id(self, subword: str) -> int:
        """The subword's id as an added token, else in the vocabulary, else the unknown token's
        (TokenizationError when the vocabulary lacks that too: transformers then gives the id None)."""
        found = self.added.token_to_id.get(subword)
        if found is None:
            found = self.vocab.get(subword.lower() if self.lowercase_lookup else subword)
        if found is None and self.unk_token is not None:
            found = self.vocab.get(self.unk_token)
        if found is None:
            raise TokenizationError(f"subword {subword!r} is not in the vocabulary, nor is the unknown token "
                                    f"{self.unk_token!r} (transformers gives it the id None)")
        return found

    def tokenize(self, sequence: str) -> list[Token]:
        """The tokens of a text, offsets in UTF-8 bytes: a subword's own span when the word's subwords spell
        the text it covers, else that whole text's."""
        byte_starts = _byte_positions(sequence)
        tokens = []
        for word, start, end in self.split_words(sequence):
            pieces = self.word_subwords(word)
            spans = _piece_spans(pieces, sequence[start:end], start)
            for piece, (first, last) in zip(pieces, spans):
                token_id = self.subword_id(piece)
                token = self.added.id_to_token(token_id) or self.vocab_r[token_id]
                tokens.append(Token(token_id, token, (byte_starts[first], byte_starts[last])))
        return tokens

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json's BPE cannot mark a subword as continued ("@@")."""
        raise UnsupportedConversion("model: subword-nmt BPE (subwords ending in '@@' when the word goes on) has no "
                                    "form in tokenizer.json, .model, .tiktoken, GGUF or tekken.json")


def _byte_positions(text: str) -> list[int]:
    """The UTF-8 byte offset of each char position of `text` (and of its end)."""
    positions = [0]
    for char in text:
        positions.append(positions[-1] + len(char.encode("utf-8", "surrogatepass")))
    return positions


def _piece_spans(pieces: list[str], covered: str, start: int) -> list[tuple[int, int]]:
    """Each subword's char span: consecutive when the subwords without "@@" spell `covered`, else all of it."""
    bare = [piece[: -len(CONTINUATION)] for piece in pieces[:-1]] + pieces[-1:]
    if "".join(bare) != covered:
        return [(start, start + len(covered))] * len(pieces)
    spans = []
    for piece in bare:
        spans.append((start, start + len(piece)))
        start += len(piece)
    return spans
