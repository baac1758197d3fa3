"""transformers' VitsTokenizer model: one token per character, a blank token between and around them.

Each character is its vocab.json id, or the unknown token's id; with add_blank, the token of id 0 (the blank)
comes before every character and after the last, as VITS models are trained ("a b" -> _ a _ ␣ _ b _). The unknown
id may belong to a token added after the vocabulary, so the loader sets `unk_id` once the tokens are added. No file
format holds this model: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from typing import Any

from ..errors import TokenizationError, UnsupportedConversion
from .base import Token, VocabLookup

BLANK_ID = 0


class BlankCharacters(VocabLookup):
    """Character -> its id (else `unk_id`), with the blank (id 0) around each one when `add_blank`."""

    def __init__(self, vocab: dict[str, int], unk_id: int | None, add_blank: bool):
        self.vocab = dict(vocab)
        self.vocab_r = {token_id: token for token, token_id in self.vocab.items()}
        self.unk_id = unk_id
        self.add_blank = add_blank

    def tokenize(self, sequence: str) -> list[Token]:
        """The characters' tokens (offsets in UTF-8 bytes), blanks at the boundaries taking no text."""
        tokens = []
        start = 0
        for char in sequence:
            end = start + len(char.encode("utf-8", "surrogatepass"))
            if self.add_blank:
                tokens.append(self._blank(start))
            tokens.append(Token(self._char_id(char), char, (start, end)))
            start = end
        if self.add_blank and tokens:
            tokens.append(self._blank(start))
        return tokens

    def _char_id(self, char: str) -> int:
        """The character's id, else the unknown token's."""
        token_id = self.vocab.get(char, self.unk_id)
        if token_id is None:
            raise TokenizationError(f"{char!r} is not in the vocabulary and there is no unknown token")
        return token_id

    def _blank(self, position: int) -> Token:
        """The blank token at a boundary."""
        return Token(BLANK_ID, self.vocab_r.get(BLANK_ID, ""), (position, position))

    def to_dict(self) -> dict[str, Any]:
        """Refused: no format holds characters with blanks between them."""
        raise UnsupportedConversion("model: VITS's characters with a blank token (id 0) around each one have no form "
                                    "in tokenizer.json, .model, .tiktoken, GGUF or tekken.json")
