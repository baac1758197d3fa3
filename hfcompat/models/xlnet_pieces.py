"""transformers' CpmTokenizer model: XLNet's text preprocessing, sentencepiece, and the digit-comma split.

The class (a Python tokenizer in transformers 5.24) runs, on each piece of text between added tokens:
whitespace collapsed to single spaces and the ends stripped (remove_space), `` and '' turned into ",
NFKD with combining marks dropped (unless keep_accents), lowercasing (do_lower_case), then sentencepiece's
own encode. A piece ending in a digit and a comma ("▁1,") is encoded again without its "▁" and comma, the
leading "▁" of that result dropped when the piece had none, and the comma appended. Token ids are the
pieces' sentencepiece ids. No file format holds the preprocessing and the second encode, so `to_dict`
raises UnsupportedConversion.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from ..errors import UnsupportedConversion
from .base import Model, Token

UNDERLINE = "\u2581"


@dataclass
class XLNetPieces(Model):
    """A SentencePiece tokenizer (hfcompat's Tokenizer read from the .model) under XLNet's Python preprocessing."""

    sentencepiece: Any
    unk_id: int
    lowercase: bool = False
    remove_space: bool = True
    keep_accents: bool = False

    def preprocess(self, text: str) -> str:
        """The text as XLNet's preprocess_text leaves it."""
        if self.remove_space:
            text = " ".join(text.strip().split())
        text = text.replace("``", '"').replace("''", '"')
        if not self.keep_accents:
            text = "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))
        return text.lower() if self.lowercase else text

    def encode(self, text: str) -> list[str]:
        """sentencepiece's pieces of `text` (an unknown run as its own text, as sentencepiece gives it)."""
        return self.sentencepiece.encode(text, add_special_tokens=False).tokens

    def split_pieces(self, text: str) -> list[str]:
        """The pieces after the digit-comma split."""
        result: list[str] = []
        for piece in self.encode(text):
            if len(piece) > 1 and piece[-1] == "," and piece[-2].isdigit():
                again = self.encode(piece[:-1].replace(UNDERLINE, ""))
                if piece[0] != UNDERLINE and again and again[0][0] == UNDERLINE:
                    again = again[1:] if len(again[0]) == 1 else [again[0][1:], *again[1:]]
                result.extend([*again, piece[-1]])
            else:
                result.append(piece)
        return result

    def tokenize(self, sequence: str) -> list[Token]:
        """The pieces' ids (the unk id for a piece outside the vocabulary), each spanning the whole sequence."""
        span = (0, len(sequence.encode("utf-8", "surrogatepass")))
        tokens = []
        for piece in self.split_pieces(self.preprocess(sequence)):
            token_id = self.token_to_id(piece)
            token_id = self.unk_id if token_id is None else token_id
            tokens.append(Token(token_id, self.id_to_token(token_id) or piece, span))
        return tokens

    def token_to_id(self, token: str) -> int | None:
        """The sentencepiece id of a piece, or None."""
        return self.sentencepiece.model.token_to_id(token)

    def id_to_token(self, token_id: int) -> str | None:
        """The piece of an id, or None."""
        return self.sentencepiece.model.id_to_token(token_id)

    def get_vocab(self) -> dict[str, int]:
        """The pieces -> ids."""
        return self.sentencepiece.model.get_vocab()

    def get_vocab_size(self) -> int:
        """The number of pieces."""
        return self.sentencepiece.model.get_vocab_size()

    def to_dict(self) -> dict[str, Any]:
        """Refused: no format holds XLNet's Python preprocessing and digit-comma split."""
        raise UnsupportedConversion("model: CpmTokenizer's XLNet preprocessing (remove_space, NFKD accent removal) and "
                                    "digit-comma re-encoding around sentencepiece have no form in tokenizer.json")
