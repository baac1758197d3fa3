"""What every model shares: the interface a tokenizer relies on (`Model`), the kernel a model
offers its tokenizer's encode plan (`ModelKernel`), the Token it returns (defined with the splits
that hold it) and the vocab lookups of the models that keep a vocab dict."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Protocol

from ..errors import FormatError
from ..pipeline.bytelevel import bytes_to_chars
from ..pipeline.normalized import Span, Token, char_spans

__all__ = ["Columns", "LoadPanic", "Model", "ModelKernel", "Token", "VocabLookup", "reference_kernel",
           "token_columns"]

# A word's tokens as a tokenizer collects them: ids, strings and char spans within the word.
Columns = tuple[list[int], list[str], list[Span]]


@dataclass(frozen=True)
class ModelKernel:
    """What a model gives its tokenizer's encode plan, for the backend in use: `columns` answers
    every word; each other entry is a faster form for some inputs (None: the model has none),
    and may return None for an input it leaves to `columns` (or, for ids, to the Encoding)."""

    columns: Callable[[str], Columns]  # a word's ids, strings and char spans
    fast_columns: Callable[[str], Columns | None] | None = None  # the same, compiled, for the words it can
    ids: Callable[[str], list[int] | None] | None = None  # a word's ids alone
    utf8_columns: Callable[[str], Columns | None] | None = None  # a piece's, merged as its byte-level chars
    utf8_ids: Callable[[str], list[int] | None] | None = None  # the ids of `utf8_columns`
    # A whole text's ids, its pieces found by a compiled scanner of the pre-tokenizer's pattern.
    scanned_ids: Callable[[str, Any], list[int]] | None = None
    scanned_ids_batch: Callable[[list[str], Any], list[list[int]]] | None = None
    # One segmentation drawn at random (subword regularization, BPE-dropout): sample(word, alpha=,
    # nbest_size=, rng=) -> tokens, as `tokenize` gives them.
    sample: Callable[..., list[Token]] | None = None
    deterministic: bool = True  # the same word always gives the same tokens (no dropout): cacheable
    overrun: bool = False  # a token's byte span may run past its word (`BPE.spans_may_overrun`)


class Model(Protocol):
    """What a tokenizer needs of its model; `kernel` has the reference behaviour built in."""

    # Changed when a setting that `kernel` reads changes (BPE's dropout), so that a tokenizer
    # builds its encode plan again.
    kernel_version: int = 0

    def tokenize(self, sequence: str) -> list[Token]:
        """The tokens of one word, with UTF-8 byte spans within it."""
        ...

    def token_to_id(self, token: str) -> int | None:
        """The id of `token`, or None."""
        ...

    def id_to_token(self, token_id: int) -> str | None:
        """The token of `token_id`, or None."""
        ...

    def get_vocab(self) -> dict[str, int]:
        """The token -> id map."""
        ...

    def get_vocab_size(self) -> int:
        """Number of vocab entries."""
        ...

    def kernel(self) -> ModelKernel:
        """What this model offers an encode plan: its `tokenize`, read into columns."""
        return reference_kernel(self.tokenize)

    def clear_cache(self) -> None:
        """Forget the words the model cached (a model that caches none has nothing to forget)."""


def reference_kernel(tokenize: Callable[[str], list[Token]], *, char_offsets: bool = False,
                     sample: Callable[..., list[Token]] | None = None, deterministic: bool = True,
                     overrun: bool = False) -> ModelKernel:
    """The kernel of a model known by its `tokenize` (spans in bytes, or in chars) and `sample`."""
    columns = partial(token_columns, tokenize=tokenize, char_offsets=char_offsets)
    return ModelKernel(columns, ids=partial(token_ids, tokenize=tokenize), sample=sample,
                       deterministic=deterministic, overrun=overrun)


def token_columns(word: str, tokenize: Callable[[str], list[Token]], char_offsets: bool = False) -> Columns:
    """A word's tokens from `tokenize` as columns (spans in bytes read as chars, unless in chars)."""
    tokens = tokenize(word)
    spans = [token[2] for token in tokens]
    return ([token[0] for token in tokens], [token[1] for token in tokens],
            spans if char_offsets else char_spans(word, spans))


def token_ids(word: str, tokenize: Callable[[str], list[Token]]) -> list[int]:
    """A word's ids from `tokenize`."""
    return [token[0] for token in tokenize(word)]


def utf8_token_columns(piece: str, columns: Callable[[str], Columns]) -> Columns:
    """A piece's columns when its byte-level chars are the word (`columns` gives their spans,
    which are the piece's byte spans): spans read as the piece's chars."""
    ids, tokens, byte_spans = columns(bytes_to_chars(piece.encode()))
    return ids, tokens, char_spans(piece, byte_spans)


class LoadPanic(FormatError):
    """A model HF's builder panics on instead of returning an error: a model without a "type"
    is then not tried as the next type (HF's panic ends its search), it is refused."""


class VocabLookup(Model):
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
