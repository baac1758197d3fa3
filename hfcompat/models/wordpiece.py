"""WordPiece: greedy longest-match-first split of a word into vocabulary pieces (BERT)."""

from __future__ import annotations

from os import PathLike
from functools import partial
from typing import Any

from .. import _backend
from ..errors import TokenizationError
from ..pipeline.fields import USIZE_MAX, as_str, as_uint, field_value
from .base import Columns, ModelKernel, Token, VocabLookup
from .vocab_files import read_vocab_txt
from .wordlevel import check_type, ordered_vocab, read_vocab_map, reverse_vocab

_backend.load("wordpiece")  # the compiled twin, when it was built

MISSING_UNK = "WordPiece error: Missing [UNK] token from the vocabulary"


class WordPiece(VocabLookup):
    """Split each word greedily into the longest pieces of `vocab`.

    Pieces after the first carry `continuing_subword_prefix`. A word longer than
    `max_input_chars_per_word` characters, or one with any position where no piece
    matches, becomes a single `unk_token` spanning the whole word.
    """

    def __init__(
        self,
        vocab: dict[str, int] | None = None,
        unk_token: str = "[UNK]",
        continuing_subword_prefix: str = "##",
        max_input_chars_per_word: int = 100,
    ):
        self.vocab: dict[str, int] = dict(vocab or {})
        self.vocab_r: dict[int, str] = reverse_vocab(self.vocab)
        self.unk_token = unk_token
        self.continuing_subword_prefix = continuing_subword_prefix
        self.max_input_chars_per_word = max_input_chars_per_word
        self.reference_matcher = GreedyMatcher(self.vocab, continuing_subword_prefix)
        # The compiled matcher (`_wordpiece.GreedyMatcher`), built on first use; False when the ids do not fit it.
        self._matcher: Any = None

    @classmethod
    def from_vocab_file(cls, path: str | PathLike, **kwargs: Any) -> WordPiece:
        """Build from a BERT vocab.txt (one token per line, id = line number)."""
        return cls(read_vocab_txt(path), **kwargs)

    def tokenize(self, sequence: str) -> list[Token]:
        """Split one word; offsets are UTF-8 byte offsets within it."""
        tokens = self.tokenize_chars(sequence)
        return tokens if sequence.isascii() else self._with_byte_offsets(sequence, tokens)

    def tokenize_chars(self, sequence: str) -> list[Token]:
        """`tokenize` with char offsets (what the tokenizer needs; no byte counting)."""
        return [Token(*token) for token in zip(*self.matched_columns(sequence, self.reference_matcher))]

    def kernel(self) -> ModelKernel:
        """The greedy matcher of the backend in use (the compiled one when it is built and the
        ids fit it, else the reference), read as a word's columns and ids."""
        matcher = (self._compiled_matcher() if _backend.wordpiece is not None else None) or self.reference_matcher
        return ModelKernel(partial(self.matched_columns, matcher=matcher),
                           ids=partial(self.matched_ids, matcher=matcher))

    def matched_columns(self, sequence: str, matcher: Any) -> Columns:
        """A word's ids, pieces and char spans by `matcher` (a `GreedyMatcher`): the whole word
        when it is a token, the unknown token when it is too long or a position has no match."""
        if len(sequence) > self.max_input_chars_per_word:
            return self._unknown_columns(sequence)
        whole_id = self.vocab.get(sequence)
        if whole_id is not None and sequence:
            return [whole_id], [sequence], [(0, len(sequence))]
        found = matcher.columns(sequence)
        return found if found is not None else self._unknown_columns(sequence)

    def matched_ids(self, sequence: str, matcher: Any) -> list[int] | None:
        """The ids of `matched_columns` without pieces or spans; None for an empty word or where
        the unknown token is missing (the Encoding path then raises as `tokenize` does)."""
        if not sequence:
            return None
        found = None
        if len(sequence) <= self.max_input_chars_per_word:
            whole_id = self.vocab.get(sequence)
            found = [whole_id] if whole_id is not None else matcher.ids(sequence)
        unk_id = self.vocab.get(self.unk_token) if found is None else None
        return found if found is not None else None if unk_id is None else [unk_id]

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the compiled matcher (a C object): a copy builds its own."""
        return {**self.__dict__, "_matcher": None}

    def _compiled_matcher(self) -> Any:
        """This model's compiled greedy matcher on the compiled backend (built on first use);
        None on the pure-Python backend or when the vocabulary's ids do not fit its 31 bits."""
        core = _backend.wordpiece
        if core is None or self._matcher is False:
            return None
        if self._matcher is None:
            try:
                self._matcher = core.GreedyMatcher(self.vocab, self.continuing_subword_prefix)
            except OverflowError:
                self._matcher = False
                return None
        return self._matcher

    @staticmethod
    def _with_byte_offsets(word: str, tokens: list[Token]) -> list[Token]:
        """Turn the char spans of tokens that tile `word` into the byte spans HF reports."""
        converted = []
        byte_start = 0
        for token_id, value, (start, end) in tokens:
            byte_end = byte_start + len(word[start:end].encode("utf-8"))
            converted.append(Token(token_id, value, (byte_start, byte_end)))
            byte_start = byte_end
        return converted

    def _unknown_columns(self, word: str) -> Columns:
        """The single unk token covering the whole word (char offsets)."""
        unk_id = self.vocab.get(self.unk_token)
        if unk_id is None:
            raise TokenizationError(MISSING_UNK)
        return [unk_id], [self.unk_token], [(0, len(word))]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json "model" object, keys in HF's order."""
        return {
            "type": "WordPiece",
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "max_input_chars_per_word": self.max_input_chars_per_word,
            "vocab": ordered_vocab(self.vocab_r),
        }

    @classmethod
    def from_dict(cls, data: Any) -> WordPiece:
        """Build from the tokenizer.json "model" object; like HF, every field but "type" is required."""
        check_type(data, "WordPiece")
        fields = {
            name: as_str(field_value(data, name), name) for name in ("unk_token", "continuing_subword_prefix")
        }
        max_chars = as_uint(field_value(data, "max_input_chars_per_word"), "max_input_chars_per_word", USIZE_MAX)
        vocab = read_vocab_map(field_value(data, "vocab"))
        return cls(vocab, max_input_chars_per_word=max_chars, **fields)


class GreedyMatcher:
    """A WordPiece vocabulary's greedy longest-match split: the reference twin of
    `_wordpiece.GreedyMatcher`, with the same methods. At each position it tries ever shorter
    candidates, from the longest piece that may start with the char there."""

    def __init__(self, vocab: dict[str, int], prefix: str):
        self.vocab = vocab
        self.prefix = prefix
        # Per first char, the longest piece at a word's start and after it (prefix left out):
        # a longer candidate cannot be in the vocabulary, so it is not looked up.
        self._longest_first, self._longest_next = _longest_by_first_char(vocab, prefix)

    def greedy_pieces(self, word: str) -> list[tuple[int, str, int, int]] | None:
        """(id, piece, char start, char end) of each longest match, or None if a position has none."""
        return self.fill(word, [])

    def fill(self, word: str, pieces: list[tuple[int, str, int, int]]) -> list[tuple[int, str, int, int]] | None:
        """`greedy_pieces` into `pieces`, which keeps the matches found before a failing position."""
        vocab = self.vocab
        prefix = self.prefix
        length = len(word)
        start = 0
        while start < length:
            end = min(length, start + self.longest_candidate(word, start))
            while end > start:
                piece = prefix + word[start:end] if start else word[start:end]
                token_id = vocab.get(piece)
                if token_id is not None:
                    break
                end -= 1
            else:
                return None
            pieces.append((token_id, piece, start, end))
            start = end
        return pieces

    def columns(self, word: str) -> Columns | None:
        """`greedy_pieces` as ids, pieces and char spans; None if a position has no match."""
        found = self.greedy_pieces(word)
        if found is None:
            return None
        return [item[0] for item in found], [item[1] for item in found], [(item[2], item[3]) for item in found]

    def ids(self, word: str) -> list[int] | None:
        """The ids of `columns` alone; None where `columns` is None."""
        found = self.greedy_pieces(word)
        return None if found is None else [item[0] for item in found]

    def longest_candidate(self, word: str, start: int) -> int:
        """How many chars the longest vocabulary piece that may match at `start` has (0: none)."""
        return (self._longest_next if start else self._longest_first).get(word[start], 0)


def _longest_by_first_char(vocab: dict[str, int], prefix: str) -> tuple[dict[str, int], dict[str, int]]:
    """Per first char, the length of the longest token, and of the longest token after the
    continuing prefix (without it)."""
    first: dict[str, int] = {}
    following: dict[str, int] = {}
    for token in vocab:
        if token and len(token) > first.get(token[0], 0):
            first[token[0]] = len(token)
        rest = token[len(prefix):]
        if prefix and rest and token.startswith(prefix) and len(rest) > following.get(rest[0], 0):
            following[rest[0]] = len(rest)
    return first, following if prefix else first
