"""WordPiece: greedy longest-match-first split of a word into vocabulary pieces (BERT)."""

from __future__ import annotations

from os import PathLike
from typing import Any

from .._fields import USIZE_MAX, as_str, as_uint, field_value
from ..errors import TokenizationError
from . import Token, VocabLookup
from .wordlevel import check_type, ordered_vocab, read_vocab_map, reverse_vocab

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
        # No piece is longer than this, so longer candidates need not be looked up.
        self._max_piece_chars = max(map(len, self.vocab), default=0)

    @classmethod
    def from_vocab_file(cls, path: str | PathLike, **kwargs: Any) -> WordPiece:
        """Build from a BERT vocab.txt (one token per line, id = line number)."""
        from ..formats.vocab_files import read_vocab_txt  # late: formats import the models

        return cls(read_vocab_txt(path), **kwargs)

    def tokenize(self, sequence: str) -> list[Token]:
        """Split one word; offsets are UTF-8 byte offsets within it."""
        if len(sequence) > self.max_input_chars_per_word:
            return [self._unknown(sequence)]
        whole_id = self.vocab.get(sequence)
        if whole_id is not None and sequence:
            return [Token(whole_id, sequence, (0, len(sequence.encode("utf-8"))))]
        pieces = self._greedy_pieces(sequence)
        if pieces is None:
            return [self._unknown(sequence)]
        if sequence.isascii():
            return [Token(token_id, value, (start, end)) for token_id, value, start, end in pieces]
        return self._with_byte_offsets(sequence, pieces)

    def _greedy_pieces(self, word: str, pieces: list[tuple[int, str, int, int]] | None = None
                       ) -> list[tuple[int, str, int, int]] | None:
        """(id, piece, char start, char end) of each longest match, or None if a position has none.

        A `pieces` list given by the caller is filled in place, so it keeps the matches found
        before a failing position.
        """
        vocab = self.vocab
        prefix = self.continuing_subword_prefix
        longest = self._max_piece_chars
        length = len(word)
        pieces = [] if pieces is None else pieces
        start = 0
        while start < length:
            end = min(length, start + longest)
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

    @staticmethod
    def _with_byte_offsets(word: str, pieces: list[tuple[int, str, int, int]]) -> list[Token]:
        """Turn char spans into the byte spans HF reports."""
        tokens = []
        byte_start = 0
        for token_id, value, start, end in pieces:
            byte_end = byte_start + len(word[start:end].encode("utf-8"))
            tokens.append(Token(token_id, value, (byte_start, byte_end)))
            byte_start = byte_end
        return tokens

    def _unknown(self, word: str) -> Token:
        """The single unk token covering the whole word."""
        unk_id = self.vocab.get(self.unk_token)
        if unk_id is None:
            raise TokenizationError(MISSING_UNK)
        return Token(unk_id, self.unk_token, (0, len(word.encode("utf-8"))))

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
