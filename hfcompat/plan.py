"""The encode plan: how a tokenizer's text reaches its model, chosen once per tokenizer.

A Tokenizer builds its plan from its pre-tokenizer's `piece_route` and its model's `kernel`
when it first encodes, and again when a component or the backend changes. The plan says how
the pieces of a normalized text are found, how a piece the cache misses becomes its tokens
(straight from the model's columns, or by pre-tokenizing the piece alone), how its ids are
found without building tokens, and which implementation of the loops that join the pieces
runs (`pipeline/pieces.py`, or its compiled twin).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from types import ModuleType
from typing import Any, Callable

from . import _backend
from .models.base import Columns, ModelKernel, utf8_token_columns
from .pipeline import pieces as reference_pieces
from .pipeline.bytelevel import bytes_to_chars
from .pre_tokenizers.base import TEXT_ROUTE, PieceForm, PieceRoute, Pieces


@dataclass(frozen=True)
class EncodePlan:
    """What a tokenizer's encode paths run, resolved for its components and the backend."""

    backend: str  # the backend it was built for (`_backend.backend`)
    version: int  # the model's `kernel_version` it was built for
    kernel: ModelKernel
    route: PieceRoute | None  # None: a text goes through the whole pipeline, split by split
    find: Callable[[str], Pieces] | None  # the pieces of a normalized text and their starts
    loops: ModuleType  # `pipeline.pieces` or its compiled twin: `assemble`, `piece_ids`
    # The model's columns of a piece that is one word (TEXT, BYTES; PREFIXED after the mark):
    # `direct` may decline a piece, `word_columns` answers every one.
    direct: Callable[[str], Columns | None] | None = None
    word_columns: Callable[[str], Columns] | None = None
    mark: str | None = None  # PREFIXED: the mark put before each piece
    ids_of: Callable[[str], list[int] | None] | None = None  # a piece's ids (after the mark), or None
    scanned_ids: Callable[[str], list[int]] | None = None  # a whole text's ids, scanned in C


def build_plan(model: Any, pre_tokenizer: Any) -> EncodePlan:
    """The plan of a model behind a pre-tokenizer (or none), for the backend in use."""
    kernel: ModelKernel = model.kernel()
    loops = _backend.pieces or reference_pieces
    route = TEXT_ROUTE if pre_tokenizer is None else pre_tokenizer.piece_route()
    if route is None or not kernel.deterministic or kernel.overrun:
        return EncodePlan(_backend.backend, model.kernel_version, kernel, None, None, loops)
    find = route.find
    if route.form is PieceForm.SPLITS:
        return EncodePlan(_backend.backend, model.kernel_version, kernel, route, find, loops)
    if route.form is PieceForm.BYTES:
        word_columns = partial(utf8_token_columns, columns=kernel.columns)
        ids_of = kernel.utf8_ids
        if ids_of is None and kernel.ids is not None:
            ids_of = partial(_utf8_ids, ids=kernel.ids)
        scanned = partial(_scanned_ids, scanned_ids=kernel.scanned_ids, scanner=route.scanner) \
            if route.scanner is not None and kernel.scanned_ids is not None else None
        return EncodePlan(_backend.backend, model.kernel_version, kernel, route, find, loops,
                          kernel.utf8_columns or word_columns, word_columns, None, ids_of, scanned)
    mark = route.mark if route.form is PieceForm.PREFIXED else None
    return EncodePlan(_backend.backend, model.kernel_version, kernel, route, find, loops,
                      kernel.fast_columns or kernel.columns, kernel.columns, mark, kernel.ids)


def _scanned_ids(text: str, scanned_ids: Callable[[str, Any], list[int]], scanner: Any) -> list[int]:
    """A whole text's ids from the model's scanned path and the pre-tokenizer's scanner."""
    return scanned_ids(text, scanner)


def _utf8_ids(piece: str, ids: Callable[[str], list[int] | None]) -> list[int] | None:
    """A piece's ids as its byte-level chars give them."""
    return ids(bytes_to_chars(piece.encode()))
