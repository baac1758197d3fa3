"""What every model shares: the Token it returns (defined with the splits that hold it) and the
vocab lookups of the models that keep a vocab dict."""

from __future__ import annotations

from ..errors import FormatError
from ..pipeline.normalized import Token

__all__ = ["LoadPanic", "Token", "VocabLookup"]


class LoadPanic(FormatError):
    """A model HF's builder panics on instead of returning an error: a model without a "type"
    is then not tried as the next type (HF's panic ends its search), it is refused."""


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
