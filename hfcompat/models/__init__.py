"""Tokenization models: each turns one pre-token into tokens.

A model exposes `tokenize(sequence) -> list[Token]`, `token_to_id`, `id_to_token`,
`get_vocab`, `get_vocab_size`, `to_dict` and the classmethod `from_dict`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..errors import FormatError


class Token(NamedTuple):
    """One token of a pre-token: `offsets` are UTF-8 byte offsets within that pre-token."""

    id: int
    value: str
    offsets: tuple[int, int]


class VocabLookup:
    """Token <-> id lookups for the models that keep a vocab dict (`vocab`) and its reverse."""

    vocab: dict[str, int]
    vocab_r: dict[int, str]

    def token_to_id(self, token: str) -> int | None:
        """The id of `token`, or None."""
        return self.vocab.get(token)

    def id_to_token(self, token_id: int) -> str | None:
        """The token of `token_id`, or None."""
        return self.vocab_r.get(token_id)

    def get_vocab(self) -> dict[str, int]:
        """A copy of the token -> id map."""
        return dict(self.vocab)

    def get_vocab_size(self) -> int:
        """Number of vocab entries."""
        return len(self.vocab)


def model_from_dict(data: Any) -> Any:
    """Build a model from its tokenizer.json form; untagged legacy forms are tried in HF's order."""
    from .bpe import BPE
    from .unigram import Unigram
    from .wordlevel import WordLevel
    from .wordpiece import WordPiece

    kinds = {"BPE": BPE, "WordPiece": WordPiece, "WordLevel": WordLevel, "Unigram": Unigram}
    if not isinstance(data, dict):
        raise FormatError(f"expected an object, got {type(data).__name__}", field="model")
    kind = data.get("type")
    if kind is not None:
        if kind not in kinds:
            raise FormatError(f"unknown model type {kind!r} (expected one of {sorted(kinds)})", field="model.type")
        return _located(kinds[kind].from_dict, data)
    errors = []
    for name, cls in kinds.items():
        try:
            return cls.from_dict(data)
        except FormatError as error:
            errors.append(f"{name}: {error}")
    raise FormatError("untagged model matches no model type (" + "; ".join(errors) + ")", field="model")


def _located(build: Any, data: dict) -> Any:
    """Call `build(data)`, prefixing any FormatError's field with 'model'."""
    try:
        return build(data)
    except FormatError as error:
        raise error.at(field="model") from None
