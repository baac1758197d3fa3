"""A text's columns from the entries of its pieces: the reference of the compiled loops in
`_pieces.pyx`, with the same functions and signatures.

A piece's entry is what the tokenizer gives the piece pre-tokenized alone (`PieceEntry`); the
entries are cached by piece text (`Cache`), and `assemble` joins them into a text's ids, tokens,
offsets and word ids, shifted by each piece's start or mapped through the normalized text's
alignments. `piece_ids` does the same for ids alone.
"""

from __future__ import annotations

from typing import Any, Callable

from .. import _backend
from .normalized import Span

_backend.load("pieces")  # the compiled twin, when it was built

# A piece's tokens as the tokenizer gives them for the piece pre-tokenized alone: ids, strings,
# char offsets within the piece, the split of the piece each token comes from, the number of
# splits, and whether a token has an empty span.
PieceEntry = tuple[list[int], list[str], list[Span], list[Any], int, bool]
# A text's columns: ids, tokens, offsets and word ids.
TextColumns = tuple[list[int], list[str], list[Span], list[Any]]


def word_entry(ids: list[int], tokens: list[str], spans: list[Span]) -> PieceEntry:
    """The entry of a piece that is one word with these tokens."""
    return ids, tokens, spans, [0] * len(ids), 1, any(start == end for start, end in spans)


def assemble(pieces: list[str], starts: list[int], cache: Any, miss: Callable[[str], PieceEntry],
             alignments: list[Span] | None, direct: Callable[[str], Any] | None = None,
             max_chars: int = 0, mark: str | None = None) -> TextColumns | None:
    """(ids, tokens, offsets, word ids) of the pieces found at `starts`, each piece's entry taken
    from `cache` or made by `direct_entry` (when `direct` is given) or `miss(piece)`; offsets
    mapped through `alignments` (a (start, end) per normalized char) unless it is None. None
    when a piece with an empty token meets alignments (its offsets do not go through them)."""
    ids: list[int] = []
    tokens: list[str] = []
    offsets: list[Span] = []
    words: list[Any] = []
    index = 0
    for piece, start in zip(pieces, starts):
        entry = cache.get(piece)
        if entry is None and direct is not None:
            entry = direct_entry(piece, direct, cache, max_chars, mark)
        if entry is None:
            entry = miss(piece)
        piece_ids, piece_tokens, piece_offsets, piece_words, splits, has_empty = entry
        if alignments is not None and has_empty:
            return None
        if len(piece_ids) == 1:  # most pieces: appends, no comprehension
            first, end = piece_offsets[0]
            ids.append(piece_ids[0])
            tokens.append(piece_tokens[0])
            offsets.append((start + first, start + end) if alignments is None else
                           (alignments[start + first][0], alignments[start + end - 1][1]))
            words.append(index + piece_words[0])
            index += splits
            continue
        ids += piece_ids
        tokens += piece_tokens
        if alignments is None:
            offsets += [(start + first, start + end) for first, end in piece_offsets]
        else:
            offsets += [(alignments[start + first][0], alignments[start + end - 1][1]) for first, end in piece_offsets]
        words += [index] * len(piece_ids) if splits == 1 else [index + word for word in piece_words]
        index += splits
    return ids, tokens, offsets, words


def direct_entry(piece: str, direct: Callable[[str], Any], cache: Any, max_chars: int,
                 mark: str | None) -> PieceEntry | None:
    """The entry of a piece that is one word, from `direct` (the model's columns of the word),
    offered to `cache` when the piece is shorter than `max_chars`. With `mark`, the word is
    `mark` + piece, the mark standing for the piece's first char. None when `direct` declines,
    or, with `mark`, the piece holds the mark or a token is empty (only pre-tokenizing the
    piece alone can tell those)."""
    if mark is None:
        columns = direct(piece)
    elif mark in piece:
        return None
    else:
        columns = direct(mark + piece)
    if columns is None:
        return None
    piece_ids, piece_tokens, spans = columns
    if mark is not None:
        if any(first == end for first, end in spans):
            return None
        spans = [(first - 1 if first > 0 else 0, end - 1 if end > 1 else 1) for first, end in spans]
    entry = word_entry(piece_ids, piece_tokens, spans)
    if len(piece) < max_chars:
        cache.offer(piece, entry)
    return entry


def piece_ids(pieces: list[str], cache: dict[str, list[int]], ids_of: Callable[[str], list[int] | None], mark: str,
              capacity: int, max_chars: int) -> list[int] | None:
    """The ids of every piece, concatenated: each from `cache`, or `ids_of(mark + piece)`, kept in
    `cache` while it holds fewer than `capacity` pieces (for pieces shorter than `max_chars`);
    None as soon as a piece is empty, holds the mark, or has no ids that way (the Encoding path
    then decides)."""
    ids: list[int] = []
    for piece in pieces:
        found = cache.get(piece)
        if found is None:
            if not piece or (mark and mark in piece):
                return None
            found = ids_of(mark + piece)
            if found is None:
                return None
            if len(cache) < capacity and len(piece) < max_chars:
                cache[piece] = found
        ids += found
    return ids
