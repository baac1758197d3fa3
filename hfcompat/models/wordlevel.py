"""WordLevel: a pre-token is one token, looked up whole, else the unknown token.

Also home of the token -> id vocabulary helpers that WordPiece shares.
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatError, TokenizationError
from ..pipeline.fields import U32_MAX, as_str, field_value
from .base import Token, VocabLookup


def read_vocab_map(value: Any, field: str = "vocab") -> dict[str, int]:
    """Validate a tokenizer.json `{token: id}` object (ids are u32 in HF)."""
    if not isinstance(value, dict):
        raise FormatError(f"expected an object of token -> id, got {type(value).__name__}", field=field)
    if set(map(type, value.values())) <= {int} and 0 <= min(value.values(), default=0) \
            and max(value.values(), default=0) <= U32_MAX:
        return dict(value)  # all fine, found by C loops (a 128k vocab in milliseconds)
    for token, token_id in value.items():
        if not isinstance(token_id, int) or isinstance(token_id, bool) or not 0 <= token_id <= U32_MAX:
            message = f"id of {token!r} must be an integer in 0..{U32_MAX}, got {token_id!r}"
            raise FormatError(message, field=field)
    return dict(value)


def reverse_vocab(vocab: dict[str, int]) -> dict[int, str]:
    """Map ids back to tokens; when two tokens share an id the later one wins (HF leaves it unspecified)."""
    return {token_id: token for token, token_id in vocab.items()}


def ordered_vocab(vocab_r: dict[int, str]) -> dict[str, int]:
    """The vocabulary as HF serializes it: by increasing id, holes skipped."""
    return {vocab_r[token_id]: token_id for token_id in sorted(vocab_r)}


def check_type(data: Any, expected: str) -> None:
    """Reject a model object whose optional "type" tag names another model."""
    if not isinstance(data, dict):
        raise FormatError(f"expected an object, got {type(data).__name__}")
    kind = data.get("type", expected)
    if kind != expected:
        raise FormatError(f"invalid value: string {kind!r}, expected {expected}", field="type")


def words_before_mark(text: str, mark: str) -> list[str]:
    """`text` cut before each `mark` (SentencePiece's words: "▁a▁▁b" is "▁a", "▁", "▁b")."""
    words = text.split(mark)
    found = [mark + word for word in words[1:]]
    return [words[0], *found] if words[0] else found


class WordLevel(VocabLookup):
    """Look the whole pre-token up in `vocab`; unknown pre-tokens become `unk_token`."""

    def __init__(self, vocab: dict[str, int] | None = None, unk_token: str = "<unk>"):
        self.vocab: dict[str, int] = dict(vocab or {})
        self.vocab_r: dict[int, str] = reverse_vocab(self.vocab)
        self.unk_token = unk_token
        # An unknown pre-token spelled in `<0xHH>` tokens, as a SentencePiece WORD model with byte
        # fallback does: tokenizer.json's WordLevel cannot say this (see `spell_unknown_in_bytes`).
        self.byte_fallback = False
        # Words begin at each `word_mark` of a whole text, and a run of unknown words is one
        # unknown token, as in a SentencePiece WORD model without byte fallback (`fuse_unknown_words`).
        self.word_mark: str | None = None

    def spell_unknown_in_bytes(self) -> None:
        """Give an unknown pre-token as the `<0xHH>` tokens of its UTF-8 bytes (all must be in the vocab)."""
        missing = [f"<0x{byte:02X}>" for byte in range(256) if f"<0x{byte:02X}>" not in self.vocab]
        if missing:
            raise FormatError(f"byte fallback needs every byte token; {missing[0]!r} is missing", field="vocab")
        self.byte_fallback = True

    def fuse_unknown_words(self, mark: str) -> None:
        """Take a whole text, cut it into words before each `mark` (and at its start), and give a run
        of unknown words one unknown token spanning them all: SentencePiece's processor fuses the
        unknown ids its WORD model gives in a row. tokenizer.json's WordLevel cannot say this."""
        self.word_mark = mark

    def tokenize(self, sequence: str) -> list[Token]:
        """One token spanning the whole pre-token (byte offsets); with a word mark, the tokens of its words."""
        if self.word_mark is not None:
            return self._fused_words(sequence, self.word_mark)
        return self._word(sequence)

    def _fused_words(self, text: str, mark: str) -> list[Token]:
        """The tokens of each word of `text` (cut before each `mark`), a run of unknown words (the unk id) as one token."""
        tokens: list[Token] = []
        unk_id = self.vocab.get(self.unk_token)
        start = 0
        for word in words_before_mark(text, mark):
            token = self._word(word)[0]
            end = start + token.offsets[1]
            if tokens and token.id == unk_id and tokens[-1].id == unk_id:
                tokens[-1] = Token(unk_id, tokens[-1].value, (tokens[-1].offsets[0], end))
            else:
                tokens.append(Token(token.id, token.value, (start, end)))
            start = end
        return tokens

    def _word(self, sequence: str) -> list[Token]:
        """The token(s) of one word: itself, its byte tokens, or the unknown token."""
        end = len(sequence) if sequence.isascii() else len(sequence.encode("utf-8"))
        token_id = self.vocab.get(sequence)
        if token_id is not None:
            return [Token(token_id, sequence, (0, end))]
        if self.byte_fallback:
            return [Token(self.vocab[name], name, (0, end))
                    for name in (f"<0x{byte:02X}>" for byte in sequence.encode("utf-8"))]
        unk_id = self.vocab.get(self.unk_token)
        if unk_id is None:
            raise TokenizationError("WordLevel error: Missing [UNK] token from the vocabulary")
        return [Token(unk_id, self.unk_token, (0, end))]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json "model" object, keys in HF's order."""
        return {"type": "WordLevel", "vocab": ordered_vocab(self.vocab_r), "unk_token": self.unk_token}

    @classmethod
    def from_dict(cls, data: Any) -> WordLevel:
        """Build from the tokenizer.json "model" object; `vocab` and `unk_token` are required."""
        check_type(data, "WordLevel")
        vocab = read_vocab_map(field_value(data, "vocab"))
        return cls(vocab, as_str(field_value(data, "unk_token"), "unk_token"))
