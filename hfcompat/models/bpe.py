"""Byte-pair encoding, exactly as HuggingFace `tokenizers` runs it (`models/bpe`).

A pre-token becomes one symbol per char (decorated with the continuing-subword prefix and the
end-of-word suffix, with byte fallback or unk for chars outside the vocab), then adjacent symbols
are merged by the merge table: always the pair of lowest rank, the leftmost one on ties.

The merge loop lives in a `MergeTable`: the one below (the reference), or its compiled twin
`_bpe.MergeTable` with the same methods. `BPE` chooses one for the backend in use when it builds
its kernel (`merge_table`), and merges every word without dropout or unused pieces with it.

`MergeTable.merge_with_heap` is the reference algorithm (HF's `Word::merge_all`): a min-priority
queue (a heap) of (rank, position) over a linked list of symbols, O(n log n), with HF's dropout and
stale-entry rules. Short words take minbpe's loop instead (`MergeTable.merge_by_scan`: the lowest
pair, the leftmost on ties, until none merges), which gives the same result whenever no stale
heap entry can pass HF's validity check.

A long word splits first at its cuts: places between two chars of the vocab that no vocab token
spans. A merge there would make a token holding both chars, so none happens, and the segments
merge alone with the same result; the reference table caches them, so a long unspaced run
(Chinese, Japanese) costs a few cache lookups per char instead of a merge loop.

A model read from a SentencePiece .model runs the same loop in sentencepiece's variant
(`merge_as_sentencepiece`): merges ordered by piece score, UNUSED pieces split back, and
`sample` for sentencepiece's BPE-dropout.
"""

from __future__ import annotations

import heapq
import math
import random
import struct
from codecs import charmap_decode
from functools import partial
from operator import itemgetter
from itertools import accumulate, chain
from typing import Any, Callable, Iterable, Mapping

from .. import _backend
from ..errors import FormatError, TokenizationError
from ..pipeline.bytelevel import BYTE_CHARS, bytes_to_chars
from ..pipeline.cache import Cache
from ..pipeline.normalized import char_spans
from .base import Columns, LoadPanic, ModelKernel, Token, VocabLookup, reference_kernel, token_columns
from .vocab_files import is_merges_header, merge_pairs, read_merges_txt, read_vocab_json  # merge_pairs: _bpe's twin
from .wordlevel import check_type, ordered_vocab, read_vocab_map, reverse_vocab

_backend.load("bpe")  # the compiled twin, when it was built

DEFAULT_CACHE_CAPACITY = 10_000
# HF caches only pre-tokens shorter than this (HF counts bytes; the results are the same either way).
CACHE_MAX_LENGTH = 256
# Words with more symbols than this use the heap; the scan costs O(n) per merge.
SCAN_MAX_SYMBOLS = 64
# Words longer than this are split at their cuts before merging (shorter ones merge by the scan:
# the cut tables of a large vocab take a second to build, and only long words need them).
SEGMENT_MIN_LENGTH = SCAN_MAX_SYMBOLS
NO_MERGE = 1 << 62
POSITION_MASK = (1 << 32) - 1

_make_token = partial(tuple.__new__, Token)


class BPE(VocabLookup):
    """A BPE model: vocab token -> id, and merges (left, right) in rank order."""

    # SentencePiece's merge order and UNUSED pieces (see `merge_as_sentencepiece`); tokenizer.json
    # cannot say either.
    _levels: list[int] | None = None
    unused_ids: frozenset[int] = frozenset()
    # With ignore_merges in sentencepiece's mode: the only pieces a word may be whole (user-defined).
    whole_ids: frozenset[int] | None = None
    _merge_results: frozenset[int] | None = None  # the ids merges make, computed when first needed
    # Chars that are no token but that merges may join (sentencepiece's BPE merges through an unknown
    # char): char -> the id its merges were built with, outside the vocab (see `merge_through`).
    stand_ins: dict[str, int] = {}
    _stand_in_text: dict[int, str] = {}
    # The merge tables, each built on first use: the one in use (`merge_table`), the compiled one
    # (`_bpe.MergeTable`; False when the ids do not fit it) and the reference (`MergeTable`).
    _table: Any = None
    _compiled: Any = None
    _reference: MergeTable | None = None

    def __init__(
        self,
        vocab: Mapping[str, int],
        merges: Iterable[tuple[str, str]],
        *,
        cache_capacity: int = DEFAULT_CACHE_CAPACITY,
        dropout: float | None = None,
        unk_token: str | None = None,
        continuing_subword_prefix: str | None = None,
        end_of_word_suffix: str | None = None,
        fuse_unk: bool = False,
        byte_fallback: bool = False,
        ignore_merges: bool = False,
    ):
        if dropout is not None:
            dropout = _as_f32(dropout)  # HF keeps an f32: 1e-50 becomes 0.0, i.e. no dropout
            if not 0.0 <= dropout <= 1.0:
                raise FormatError("Dropout should be between 0 and 1, inclusive", field="dropout")
        self.dropout = dropout
        self.unk_token = unk_token
        self.continuing_subword_prefix = continuing_subword_prefix
        self.end_of_word_suffix = end_of_word_suffix
        self.fuse_unk = fuse_unk
        self.byte_fallback = byte_fallback
        self.ignore_merges = ignore_merges
        self.vocab = dict(vocab)
        self.vocab_r = reverse_vocab(self.vocab)
        self._byte_ids = [self.vocab.get(f"<0x{byte:02X}>") for byte in range(256)]
        self._left_ids: list[int] = []  # rank -> id of the merge's left token
        self._right_ids: list[int] = []  # rank -> id of its right token
        self._new_ids: list[int] = []  # rank -> id of the token it makes
        self._rank_of: dict[tuple[int, int], int] | None = None  # built from the columns when first needed
        self._merge_strings: list[tuple[str, str]] = []
        self._build_merge_table(merges)
        self.cache_capacity = cache_capacity
        self._cache = Cache(cache_capacity)  # word -> tokens

    # ----- construction ------------------------------------------------------------------

    def _build_merge_table(self, merges: Iterable[tuple[str, str]]) -> None:
        """Fill the rank -> (left id, right id, new id) columns of the merges."""
        merges = list(merges)
        if not self.continuing_subword_prefix:
            core = _backend.bpe  # the compiled loop finds the columns of a 280k-merge file in milliseconds
            columns = (merge_columns if core is None else core.merge_columns)(self.vocab, merges)
            if columns is not None:  # all known (the usual case): the columns in bulk
                self._left_ids, self._right_ids, self._new_ids = columns
                self._merge_strings.extend(merges)
                return
        vocab = self.vocab
        cut = len(self.continuing_subword_prefix.encode()) if self.continuing_subword_prefix else 0
        longest = max(map(_utf8_len, vocab), default=0)
        for rank, (left, right) in enumerate(merges):
            for token in (left, right):
                if token not in vocab:
                    raise _out_of_vocabulary(token, left, right, rank)
            if cut <= _utf8_len(right) and _utf8_len(left) + _utf8_len(right) - cut > longest:
                # HF joins the two in a buffer as long as the longest vocab token: it panics.
                raise LoadPanic(f"merge {left!r} {right!r} makes a token longer than any in the vocab, "
                                "which HF cannot load (it panics)", field=f"merges[{rank}]")
            merged = _merged_token(left, right, cut, rank)
            if merged not in vocab:
                raise _out_of_vocabulary(merged, left, right, rank)
            self._left_ids.append(vocab[left])
            self._right_ids.append(vocab[right])
            self._new_ids.append(vocab[merged])
            self._merge_strings.append((left, right))

    @property
    def _ranks(self) -> dict[tuple[int, int], int]:
        """(left id, right id) -> rank; a repeated pair keeps its last rank, as HF does (built on
        first use: the compiled table reads the columns, and a 280k-merge dict costs 0.1 s)."""
        if self._rank_of is None:
            self._rank_of = dict(zip(zip(self._left_ids, self._right_ids), range(len(self._new_ids))))
        return self._rank_of

    # ----- tokenization ------------------------------------------------------------------

    @property
    def dropout(self) -> float | None:
        """The chance to skip a merge (BPE-dropout); None or 0: none."""
        return self._dropout

    @dropout.setter
    def dropout(self, value: float | None) -> None:
        self._dropout = value
        self.kernel_version += 1

    @property
    def spans_may_overrun(self) -> bool:
        """Whether a token's byte span may run past its word: byte fallback on a decorated piece
        (`##1` falls back to the bytes of `#`, `#` and `1`, spans 0-3 of a 1-byte word), as HF's
        BPE gives it."""
        return self.byte_fallback and bool(self.continuing_subword_prefix or self.end_of_word_suffix)

    def tokenize(self, sequence: str) -> list[Token]:
        """Split one pre-token into tokens; offsets are UTF-8 byte offsets within it."""
        if not sequence:
            return []
        if self.dropout:
            return self._tokenize_word(sequence, self.dropout)
        if self.ignore_merges:
            token_id = self.vocab.get(sequence)
            if token_id is not None and token_id not in self.unused_ids and self._may_be_whole(token_id):
                return [_make_token((token_id, sequence, (0, _utf8_len(sequence))))]
        cached = self._cache.get(sequence)
        if cached is not None:
            return list(cached)
        tokens = self._tokenize_word(sequence, None)
        if len(sequence) < CACHE_MAX_LENGTH:
            self._cache.offer(sequence, tokens)
            return list(tokens)
        return tokens

    def tokenize_utf8(self, piece: str) -> Columns | None:
        """A byte-level piece's tokens by the merge table: ids, strings and char spans within
        `piece` (what `tokenize` gives for its byte-level chars, mapped back to the piece's
        chars); None where only `tokenize` applies (dropout, unused pieces, decorations, a byte
        whose char is no token)."""
        table = self._plain_table()
        return None if table is None else self._utf8_tokens(table, piece)

    def _utf8_tokens(self, table: Any, piece: str) -> Columns | None:
        """`tokenize_utf8` by a plain merge table, with sentencepiece's ignore_merges (the kernel
        binds it once: no per-piece check of what makes a table plain)."""
        if not piece:
            return None
        whole = self._whole_token(piece)
        if whole is not None:
            return [whole], [self.vocab_r[whole]], [(0, len(piece))]
        return table.utf8_tokens(piece, self.vocab_r)

    def kernel(self) -> ModelKernel:
        """The merge table of the backend in use (chosen here, see `merge_table`) read as a
        word's columns, ids and UTF-8 forms when the model is plain (no dropout, unused pieces or
        decorations); `tokenize`, which merges with the same table, for the rest."""
        table = self._table = self._backend_table()
        reference = reference_kernel(self.tokenize, sample=self.sample, deterministic=not self.dropout,
                                     overrun=self.spans_may_overrun)
        plain = self._plain_table()
        if plain is None:
            return reference
        whole_pieces = self.ignore_merges and self.whole_ids is not None  # looked up whole only in `_whole_token`
        # Without ignore_merges, or with HF's, nothing else decides: the table's method, without
        # a call of this model's; sentencepiece's looks up only some pieces whole.
        utf8_columns = (partial(self._utf8_tokens, plain) if whole_pieces else
                        plain.whole_piece_tokens if self.ignore_merges else table.piece_tokens)
        return ModelKernel(
            self._complete_columns, fast_columns=self.columns, ids=self.ids, utf8_columns=utf8_columns,
            utf8_ids=self.utf8_ids,
            scanned_ids=None if whole_pieces else self._scanned_ids,
            scanned_ids_batch=None if whole_pieces else self._scanned_ids_batch,
            sample=self.sample, deterministic=reference.deterministic, overrun=reference.overrun)

    def _complete_columns(self, word: str) -> Columns:
        """`columns`, or `tokenize`'s where the table leaves the word to it."""
        found = self.columns(word)
        return found if found is not None else token_columns(word, self.tokenize)

    def columns(self, word: str) -> Columns | None:
        """`tokenize` as a tokenizer's columns (ids, strings, char spans) by the merge table;
        None where only `tokenize` applies (dropout, unused pieces, decorations, an unknown char
        that byte fallback does not cover)."""
        table = self._plain_table()
        if table is None or not word:
            return None
        whole = self._whole_word(word)
        if whole is not None:
            return [whole], [word], [(0, len(word))]
        return table.columns(word, self.vocab_r)

    def ids(self, word: str) -> list[int] | None:
        """The ids of `columns` alone, without building token strings or spans (what
        sentencepiece's `encode` returns); None where `columns` is None."""
        table = self._plain_table()
        if table is None or not word:
            return None
        whole = self._whole_word(word)
        return [whole] if whole is not None else table.ids(word)

    def _whole_word(self, word: str) -> int | None:
        """With `ignore_merges`, the id of the token that is the whole word, if any (and if it
        may be looked up whole: `_may_be_whole`)."""
        if not self.ignore_merges:
            return None
        token_id = self.vocab.get(word)
        return token_id if token_id is not None and self._may_be_whole(token_id) else None

    def utf8_ids(self, piece: str) -> list[int] | None:
        """`tokenize_utf8`'s ids alone (tiktoken's path, which needs no strings or spans)."""
        table = self._plain_table()
        if table is None or not piece:
            return None
        whole = self._whole_token(piece)
        return [whole] if whole is not None else table.utf8_ids(piece)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without its merge tables (the compiled one is a C object): a copy builds its own."""
        return {**self.__dict__, "_table": None, "_compiled": None, "_reference": None}

    def build_compiled(self, whole_pieces: bool = False) -> None:
        """Build the merge table of the backend in use now, not on the first text, and, with
        `whole_pieces` (tiktoken's lookup of a whole piece), its whole-token table. Loading a
        file does, as tokenizers and tiktoken build their own when they load."""
        table = self.merge_table()
        if whole_pieces and self.ignore_merges and self.whole_ids is None:
            table.build_whole()

    def _scanned_ids(self, text: str, scanner: Any) -> list[int]:
        """tiktoken's `encode_ordinary` of a whole text whose pattern `scanner` knows: split,
        looked up whole and merged by the table (the compiled one merges without the GIL)."""
        return self.merge_table().encode_utf8_spans(text.encode("utf-8"), scanner.utf8_ends(text), self.ignore_merges)

    def _scanned_ids_batch(self, texts: list[str], scanner: Any) -> list[list[int]]:
        """`_scanned_ids` of many texts in one call (the compiled table merges all of them in
        one release of the GIL: threads then contend for it once per batch, not once per text)."""
        ends, counts = scanner.utf8_ends_batch(texts)
        data = "".join(texts).encode("utf-8")
        return self.merge_table().encode_utf8_spans(data, ends, self.ignore_merges, counts)

    def _whole_token(self, piece: str) -> int | None:
        """With `ignore_merges`, the id of the token that is the whole byte-level piece, if any
        (and if it may be looked up whole: `_may_be_whole`)."""
        if not self.ignore_merges:
            return None
        token_id = self.vocab.get(bytes_to_chars(piece.encode("utf-8")))
        return token_id if token_id is not None and self._may_be_whole(token_id) else None

    def _plain_table(self) -> Any:
        """The merge table when a plain word may skip `tokenize` entirely: no dropout, no unused
        pieces, no decorations."""
        if self.dropout or self.unused_ids or self.continuing_subword_prefix or self.end_of_word_suffix:
            return None
        return self._table or self.merge_table()

    def _tokenize_word(self, word: str, dropout: float | None) -> list[Token]:
        """Build the symbols of `word`, merge them and return the tokens."""
        return self._tokens(*self._merge_word(word, dropout))

    def _merge_word(self, word: str, dropout: float | None) -> tuple[list[int], list[int]]:
        """The merged symbols of `word`: token ids and their byte lengths (dropout and unused
        pieces in `_merge_with_heap`, the rest by the merge table)."""
        if dropout is not None or self.unused_ids:
            ids, lengths = self._symbols(word)
            if len(ids) > 1 or self.unused_ids:
                ids, lengths = self._merge_with_heap(ids, lengths, dropout)
            return ids, lengths
        table = self._table or self.merge_table()
        if not self.continuing_subword_prefix and not self.end_of_word_suffix:
            found = table.tokenize_word(word)
            if found is not None:
                return found
        return table.merge(*self._symbols(word))

    def merge_table(self) -> Any:
        """The merge table in use: the one `kernel` chose last for the backend in use, or, before
        any, the one of the backend in use now (see `_backend_table`)."""
        if self._table is None:
            self._table = self._backend_table()
        return self._table

    def _backend_table(self) -> Any:
        """The compiled merge table on the compiled backend when the ids fit its 31 bits, else
        the reference `MergeTable`."""
        core = _backend.bpe
        return (self._compiled_table(core) if core is not None else None) or self.reference_table()

    def _compiled_table(self, core: Any) -> Any:
        """This model's table of the compiled module `core` (built on first use); None when the
        model's ids do not fit its 31 bits."""
        if self._compiled is None:
            try:
                self._compiled = self._set_up(core.MergeTable(self._left_ids, self._right_ids, self._new_ids,
                                                              self._levels, self.vocab))
            except OverflowError:
                self._compiled = False
        return self._compiled or None

    def reference_table(self) -> MergeTable:
        """This model's reference merge table (built on first use): the merge loop of dropout,
        traces and unused pieces on either backend, and the table in use on the pure one."""
        if self._reference is None:
            self._reference = self._set_up(MergeTable(self._left_ids, self._right_ids, self._new_ids,
                                                      self._levels, self.vocab))
            self._reference.segment_cache = Cache(self.cache_capacity)
        return self._reference

    def _set_up(self, table: Any) -> Any:
        """`table` told the byte-level alphabet, the token strings and (with byte fallback) the
        <0xHH> tokens."""
        table.set_byte_alphabet(BYTE_CHARS)
        table.set_token_strings(self.vocab_r)
        if self.byte_fallback:
            table.set_byte_fallback(self._byte_ids)
        return table

    def _tokens(self, ids: list[int], lengths: list[int]) -> list[Token]:
        """Tokens of merged symbols, with byte offsets from their lengths."""
        ends = list(accumulate(lengths))
        starts = [0, *ends[:-1]]
        return list(map(_make_token, zip(ids, map(self.vocab_r.__getitem__, ids), zip(starts, ends))))

    def _symbols(self, word: str) -> tuple[list[int], list[int]]:
        """The initial symbols of `word`: token ids and their byte lengths."""
        pieces = self._decorate(word)
        ids = list(map(self.vocab.get, pieces))
        if None in ids:
            return self._symbols_with_unknowns(word, pieces)
        return ids, _char_lengths(word)

    def _decorate(self, word: str) -> list[str]:
        """One piece per char: the prefix on all but the first, the suffix on the last."""
        prefix, suffix = self.continuing_subword_prefix, self.end_of_word_suffix
        if not prefix and not suffix:
            return list(word)
        pieces = [word[0], *(prefix + char for char in word[1:])] if prefix else list(word)
        if suffix:
            pieces[-1] += suffix
        return pieces

    def _symbols_with_unknowns(self, word: str, pieces: list[str]) -> tuple[list[int], list[int]]:
        """HF's per-char rules for pieces outside the vocab: byte fallback, unk (fused or not), drop."""
        ids: list[int] = []
        lengths: list[int] = []
        unk: list[int] | None = None  # the pending [unk id, byte length], emitted before the next known piece
        for piece, length in zip(pieces, _char_lengths(word)):
            token_id = self.vocab.get(piece, self.stand_ins.get(piece))
            if token_id is not None:
                if unk is not None:
                    ids.append(unk[0])
                    lengths.append(unk[1])
                    unk = None
                ids.append(token_id)
                lengths.append(length)
                continue
            if self.byte_fallback:
                byte_ids = [self._byte_ids[byte] for byte in piece.encode("utf-8", "surrogatepass")]
                if None not in byte_ids:
                    # HF gives each byte length 1 (decorations included) and leaves a pending unk pending.
                    ids.extend(byte_ids)
                    lengths.extend([1] * len(byte_ids))
                    continue
            if self.unk_token is not None:
                if unk is not None and self.fuse_unk:
                    unk[1] += length
                    continue
                if unk is not None:
                    ids.append(unk[0])
                    lengths.append(unk[1])
                unk = [self._unk_id(), length]
        if unk is not None:
            ids.append(unk[0])
            lengths.append(unk[1])
        return ids, lengths

    def _unk_id(self) -> int:
        """The id of the unk token, or HF's error when the vocab lacks it."""
        unk_id = self.vocab.get(self.unk_token)
        if unk_id is None:
            raise TokenizationError(f"Unk token `{self.unk_token}` not found in the vocabulary")
        return unk_id

    def _merge_with_heap(self, ids: list[int], lengths: list[int], dropout: float | None,
                         trace: list[tuple[int, int]] | None = None,
                         skip: Callable[[], bool] | None = None) -> tuple[list[int], list[int]]:
        """HF's merge loop on the reference table (`MergeTable.merge_with_heap`: dropout, a
        `trace` of the merges applied, sentencepiece's BPE-dropout `skip`), then this model's
        unused pieces split back (`_split_unused`)."""
        unused = self.unused_ids
        ids, lengths, parts = self.reference_table().merge_with_heap(ids, lengths, dropout, trace, skip, unused)
        return self._split_unused(ids, lengths, parts) if unused else (ids, lengths)

    def merge_pieces(self, pieces: list[str]) -> list[int] | None:
        """The ids the merge loop makes of these initial symbols (no dropout, no whole-word
        look-up, no cache), so a linter can ask which tokens merging reaches; None when a piece
        is not in the vocab."""
        ids = [self.vocab.get(piece) for piece in pieces]
        if None in ids:
            return None
        lengths = [_utf8_len(piece) for piece in pieces]
        if self.unused_ids:
            return self._merge_with_heap(ids, lengths, None)[0]
        return self.merge_table().merge(ids, lengths)[0]

    def merge_as_sentencepiece(self, levels: list[int], unused_ids: frozenset[int],
                               whole_ids: frozenset[int] | None = None) -> None:
        """Merge as sentencepiece's BPE does: `levels[rank]` orders the merges (equal levels,
        i.e. equal piece scores, go leftmost first), and a piece of `unused_ids` that a merge
        makes is split back into the two symbols it was last queued from, recursively. With
        ignore_merges, only `whole_ids` (the user-defined symbols) are looked up whole."""
        self._levels = levels
        self.whole_ids = whole_ids
        self._table = self._compiled = self._reference = None  # rebuilt in sentencepiece's order
        self.unused_ids = frozenset(unused_ids)
        self.kernel_version += 1
        self.clear_cache()

    def merge_through(self, chars: Iterable[str]) -> None:
        """Let merges join these chars (in the vocab when the merges were built, and no token), as
        sentencepiece's BPE joins an unknown char: they leave the vocab, and one no merge joined is
        unknown (bytes with byte fallback, else unk), as an unused single char is."""
        self.stand_ins = {char: self.vocab.pop(char) for char in chars}
        for token_id in self.stand_ins.values():
            del self.vocab_r[token_id]
        self._stand_in_text = {token_id: char for char, token_id in self.stand_ins.items()}
        self.merge_as_sentencepiece(self._levels or [], self.unused_ids | set(self.stand_ins.values()), self.whole_ids)

    def _symbol_text(self, token_id: int) -> str:
        """The text of a token id, or of a stand-in char."""
        text = self.vocab_r.get(token_id)
        return self._stand_in_text[token_id] if text is None else text

    def sample(self, sequence: str, alpha: float, nbest_size: int = -1,
               rng: random.Random | None = None) -> list[Token]:
        """BPE-dropout as sentencepiece samples it: each merge about to apply is dropped for
        good with probability `alpha` (HF's dropout puts a dropped merge back after the next
        one). `nbest_size` is ignored, as sentencepiece ignores it for BPE; alpha <= 0 gives
        `tokenize`, alpha >= 1 the initial symbols."""
        if alpha <= 0.0 or not sequence:
            return self.tokenize(sequence)
        if self.ignore_merges and self._is_frozen(sequence):
            return [_make_token((self.vocab[sequence], sequence, (0, _utf8_len(sequence))))]
        draw = (rng or random.Random()).random
        ids, lengths = self._symbols(sequence)
        if len(ids) > 1 or self.unused_ids:
            ids, lengths = self._merge_with_heap(ids, lengths, None,
                                                 skip=lambda: alpha >= 1.0 or draw() < alpha)
        return self._tokens(ids, lengths)

    def _may_be_whole(self, token_id: int) -> bool:
        """Whether ignore_merges may give this piece for a whole word (any piece, or in
        sentencepiece's mode a user-defined one only: sentencepiece merges every other word)."""
        return self.whole_ids is None or token_id in self.whole_ids

    def _is_frozen(self, word: str) -> bool:
        """True when `word` is a piece no merge makes (a user-defined symbol of a .model, which
        sentencepiece never splits), and not an unused one."""
        token_id = self.vocab.get(word)
        if token_id is None or token_id in self.unused_ids or not self._may_be_whole(token_id):
            return False
        if self._merge_results is None:
            self._merge_results = frozenset(self._new_ids)
        return token_id not in self._merge_results

    def _split_unused(self, ids: list[int], lengths: list[int],
                      parts: dict[int, tuple[int, int]]) -> tuple[list[int], list[int]]:
        """Replace each unused piece by the pair it was last queued from, recursively; an unused
        piece no merge made (a single char) is unknown: spelled in bytes with byte fallback,
        else the unk id, fused with unknowns beside it."""
        unused, unk_id = self.unused_ids, self.vocab.get(self.unk_token) if self.unk_token else None
        out_ids: list[int] = []
        out_lengths: list[int] = []
        pending = list(zip(ids, lengths))[::-1]
        while pending:
            token_id, length = pending.pop()
            if token_id in unused:
                pair = parts.get(token_id)
                if pair is not None:
                    left_length = _utf8_len(self._symbol_text(pair[0]))
                    pending += [(pair[1], length - left_length), (pair[0], left_length)]
                    continue
                byte_ids = [self._byte_ids[byte] for byte in self._symbol_text(token_id).encode()]
                if self.byte_fallback and None not in byte_ids:
                    out_ids.extend(byte_ids)
                    out_lengths.extend([1] * len(byte_ids))
                    continue
                token_id = unk_id if unk_id is not None else token_id
            if token_id == unk_id and self.fuse_unk and out_ids and out_ids[-1] == unk_id:
                out_lengths[-1] += length
                continue
            out_ids.append(token_id)
            out_lengths.append(length)
        return out_ids, out_lengths

    # ----- cache -------------------------------------------------------------------------

    def clear_cache(self) -> None:
        """Forget every cached word (and the reference table's segments)."""
        self._cache.clear()
        if self._reference is not None:
            self._reference.segment_cache.clear()

    def resize_cache(self, capacity: int) -> None:
        """Set how many words the cache may hold (0 disables it), dropping what is cached."""
        self.cache_capacity = capacity
        self._cache = Cache(capacity)
        if self._reference is not None:
            self._reference.segment_cache = Cache(capacity)

    @property
    def merges(self) -> list[tuple[str, str]]:
        """The merges in rank order, each pair once (at its last rank, as HF keeps it)."""
        by_rank = sorted((rank, pair) for pair, rank in self._ranks.items())
        return [self._merge_strings[rank] for rank, _ in by_rank]

    # ----- serialization -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json "model" object, as HF writes it."""
        return {
            "type": "BPE",
            "dropout": self.dropout,
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "end_of_word_suffix": self.end_of_word_suffix,
            "fuse_unk": self.fuse_unk,
            "byte_fallback": self.byte_fallback,
            "ignore_merges": self.ignore_merges,
            "vocab": ordered_vocab(self.vocab_r),
            "merges": [[left, right] for left, right in self.merges],
        }

    @classmethod
    def from_dict(cls, data: Any) -> "BPE":
        """Build from the tokenizer.json "model" object (either merges form); fields as HF reads them."""
        check_type(data, "BPE")
        for name in ("vocab", "merges"):
            if name not in data:
                raise FormatError("Missing vocab/merges: the BPE model needs both", field=name)
        return cls(
            read_vocab_map(data["vocab"]),
            _merges_field(data["merges"]),
            dropout=_optional(data, "dropout", (int, float), "a number"),
            unk_token=_optional(data, "unk_token", str, "a string"),
            continuing_subword_prefix=_optional(data, "continuing_subword_prefix", str, "a string"),
            end_of_word_suffix=_optional(data, "end_of_word_suffix", str, "a string"),
            fuse_unk=bool(_optional(data, "fuse_unk", bool, "a boolean")),
            byte_fallback=bool(_optional(data, "byte_fallback", bool, "a boolean")),
            ignore_merges=bool(_optional(data, "ignore_merges", bool, "a boolean")),
        )

    @classmethod
    def from_files(cls, vocab_json_path: str, merges_txt_path: str, **options: Any) -> "BPE":
        """Build from a `vocab.json` and a `merges.txt`; `options` as the constructor's."""
        vocab = read_vocab_json(vocab_json_path)
        merges = read_merges_txt(merges_txt_path)
        try:
            return cls(vocab, merges, **options)
        except FormatError as error:
            raise error.at(path=str(merges_txt_path)) from None

    def __repr__(self) -> str:
        return (f"BPE(vocab={len(self.vocab)}, merges={len(self._ranks)}, dropout={self.dropout}, "
                f"unk_token={self.unk_token!r}, continuing_subword_prefix={self.continuing_subword_prefix!r}, "
                f"end_of_word_suffix={self.end_of_word_suffix!r}, fuse_unk={self.fuse_unk}, "
                f"byte_fallback={self.byte_fallback}, ignore_merges={self.ignore_merges})")


def merge_columns(vocab: dict[str, int], merges: list[tuple[str, str]]
                  ) -> tuple[list[int], list[int], list[int]] | None:
    """The ids of each merge's left token, right token and their join; None when a merge is not
    two strings or one of the three is not in the vocab (the caller then names it)."""
    if not _all_string_pairs(merges):
        return None
    get = vocab.get
    left_ids = list(map(get, [left for left, _ in merges]))
    right_ids = list(map(get, [right for _, right in merges]))
    merged_ids = list(map(get, [left + right for left, right in merges]))
    if None in left_ids or None in right_ids or None in merged_ids:
        return None
    return left_ids, right_ids, merged_ids


def ranked_splits(scores: dict[str, float]) -> list[tuple[float, str, str]]:
    """SentencePiece's BPE as merges (score, left, right): two pieces merge when together they
    spell a piece, the best-scored piece first (then the longer, the earlier, the shorter left
    part). The reference twin of `_bpe.ranked_splits`."""
    ranked = []
    for index, (piece, score) in enumerate(scores.items()):
        for cut in range(1, len(piece)):
            left = piece[:cut]
            if left in scores:
                right = piece[cut:]
                if right in scores:
                    ranked.append((-score, -len(piece), index, cut, left, right))
    ranked.sort()
    return [(-negated, left, right) for negated, *_, left, right in ranked]


def sentencepiece_merges(scores: dict[str, float]) -> list[tuple[float, str, str]]:
    """`ranked_splits` of a SentencePiece model's piece scores, on the backend in use."""
    core = _backend.bpe
    return (ranked_splits if core is None else core.ranked_splits)(scores)


class MergeTable:
    """A BPE model's merges and single-char tokens, and its merge loop: the reference twin of
    `_bpe.MergeTable`, with the same methods.

    Merging is minbpe's loop (`merge_by_scan`) where it gives what HF's heap gives, else the heap
    (`merge_with_heap`). A run of single-char tokens longer than SEGMENT_MIN_LENGTH merges segment
    by segment between its `cuts`, each segment cached, when no merge can cross a cut (the compiled
    loop has no need to). Symbols are counted in chars while they merge (a byte-level char is one
    byte), and turned into byte lengths or char spans at the end.
    """

    def __init__(self, left_ids: list[int], right_ids: list[int], new_ids: list[int],
                 levels: list[int] | None, vocab: dict[str, int]) -> None:
        """Tables from the merge columns of a `BPE` (rank -> left id, right id, new id), its
        `_levels` (None: HF's order) and the vocab; a repeated pair keeps its last rank."""
        self.new_ids = new_ids
        self.levels = levels
        self.vocab = vocab
        self.ranks = dict(zip(zip(left_ids, right_ids), range(len(new_ids))))
        # (left id, right id) -> the key that orders its merge (the rank, or its sentencepiece
        # level); the id it makes is new_ids[its rank]
        self.keys = self.ranks if levels is None else {pair: levels[rank] for pair, rank in self.ranks.items()}
        self.chars = {token: token_id for token, token_id in vocab.items() if len(token) == 1}
        # A stale heap entry passes HF's check (the pair now at its place makes the same id) only
        # when two tokens share an id or a merge adds nothing to its left token (a right token
        # that is the continuing prefix, cut away whole); sentencepiece's levels admit none.
        self.scan_is_exact = levels is not None or (
            len(set(vocab.values())) == len(vocab) and all(map(int.__ne__, new_ids, left_ids)))
        self.alphabet: str | None = None  # the chars of bytes 0..255 (set_byte_alphabet)
        self.fallback_ids: list[int | None] | None = None  # byte -> its <0xHH> token's id (set_byte_fallback)
        self.token_strings: Any = None  # id -> token string (set_token_strings)
        self.segment_cache = Cache(DEFAULT_CACHE_CAPACITY)  # segment -> (ids, chars per token)
        self._joinable: frozenset[str] | None = None  # every two adjacent chars of a token (cuts)
        self._segmentable: bool | None = None

    def merge(self, ids: list[int], lengths: list[int]) -> tuple[list[int], list[int]]:
        """The merged symbols (ids, byte lengths) of initial symbols, as `merge_with_heap` gives
        them with no dropout and no unused pieces."""
        return self._merged(ids[:], lengths[:])

    def _merged(self, ids: list[int], lengths: list[int]) -> tuple[list[int], list[int]]:
        """`merge` of lists it may change."""
        if len(ids) < 2:
            return ids, lengths
        if self.scan_is_exact and len(ids) <= SCAN_MAX_SYMBOLS:
            self.merge_by_scan(ids, lengths)
            return ids, lengths
        merged_ids, merged_lengths, _ = self.merge_with_heap(ids, lengths)
        return merged_ids, merged_lengths

    def merge_by_scan(self, ids: list[int], lengths: list[int]) -> None:
        """minbpe's loop, in place: merge the adjacent pair of lowest key, the leftmost on ties,
        until no pair merges."""
        get_key, ranks, new_ids = self.keys.get, self.ranks, self.new_ids
        keys = [get_key(pair, NO_MERGE) for pair in zip(ids, ids[1:])]
        while keys:
            best = min(keys)
            if best == NO_MERGE:
                return
            i = keys.index(best)
            new_id = ids[i] = new_ids[ranks[ids[i], ids[i + 1]]]
            lengths[i] += lengths[i + 1]
            del ids[i + 1], lengths[i + 1], keys[i]
            if i:
                keys[i - 1] = get_key((ids[i - 1], new_id), NO_MERGE)
            if i < len(keys):
                keys[i] = get_key((new_id, ids[i + 1]), NO_MERGE)

    def merge_with_heap(self, ids: list[int], lengths: list[int], dropout: float | None = None,
                        trace: list[tuple[int, int]] | None = None, skip: Callable[[], bool] | None = None,
                        unused: frozenset[int] = frozenset()
                        ) -> tuple[list[int], list[int], dict[int, tuple[int, int]]]:
        """HF's merge loop: a priority queue of (rank, left position) over a linked list of
        symbols; the merged ids and byte lengths, and per piece of `unused` that a merge made,
        the pair it was last queued from (for `BPE._split_unused`).

        A popped entry is stale (skipped) when its left symbol was merged away, has no right
        neighbour, or the pair now there merges into a different id. With dropout, each popped
        entry is set aside with probability `dropout`, and put back once a merge is accepted.

        In sentencepiece's order (`levels`, or whenever `skip` is given) the queue holds (level,
        left position), an entry stands for the pair now at its position if that pair has the
        entry's level, and `skip()` (BPE-dropout) drops a valid pair for good: it stays declined
        until one of its symbols grows.

        Entries are the ints `key << 32 | position`, which order like the pairs. The queue is a
        sorted list read from `head` (the seeds, then every pushed entry not below its last one)
        plus a heap of the other pushed entries; a pop takes the smaller of the two heads. That is
        the order of one heap, with far fewer sifts.

        `trace`, when given, receives (rank, position of the left symbol) of each merge applied.
        """
        ranks, new_ids = self.ranks, self.new_ids
        levels = self.levels
        if levels is None and skip is not None:
            levels = list(range(len(new_ids)))
        parts: dict[int, tuple[int, int]] = {}
        push, pop = heapq.heappush, heapq.heappop
        count = len(ids)
        next_of = [*range(1, count), -1]
        prev_of = list(range(-1, count - 1))
        declined = [0] * count  # byte length of the pair at each position that `skip` dropped
        seeds = [(rank, pos) for pos, pair in enumerate(zip(ids, ids[1:])) if (rank := ranks.get(pair)) is not None]
        if unused:
            parts.update((new_ids[rank], (ids[pos], ids[pos + 1])) for rank, pos in seeds
                         if new_ids[rank] in unused)
        queue = sorted((rank if levels is None else levels[rank]) << 32 | pos for rank, pos in seeds)
        head = 0
        heap: list[int] = []
        set_aside: list[int] = []

        def enqueue(left: int, right: int) -> None:
            """Queue the pair of symbols `left` and `right` if it has a merge."""
            rank = ranks.get((ids[left], ids[right]))
            if rank is not None:
                if unused and new_ids[rank] in unused:
                    parts[new_ids[rank]] = (ids[left], ids[right])
                entry = (rank if levels is None else levels[rank]) << 32 | left
                if entry >= queue[-1]:
                    queue.append(entry)
                else:
                    push(heap, entry)

        while True:
            if heap and (head == len(queue) or heap[0] < queue[head]):
                entry = pop(heap)
            elif head < len(queue):
                entry = queue[head]
                head += 1
            else:
                break
            if dropout is not None:
                if random.random() < dropout:
                    set_aside.append(entry)
                    continue
                for kept in set_aside:
                    push(heap, kept)
                set_aside.clear()
            pos = entry & POSITION_MASK
            right = next_of[pos]
            if right == -1 or not lengths[pos]:
                continue
            current = ranks.get((ids[pos], ids[right]))
            if current is None:
                continue
            if levels is None:
                applied = entry >> 32
                new_id = new_ids[applied]
                if new_ids[current] != new_id:
                    continue
            else:
                applied = current
                size = lengths[pos] + lengths[right]
                if levels[current] != entry >> 32 or declined[pos] == size:
                    continue
                if skip is not None and skip():
                    declined[pos] = size
                    continue
                new_id = new_ids[current]
            if trace is not None:
                trace.append((applied, pos))
            ids[pos] = new_id
            lengths[pos] += lengths[right]
            lengths[right] = 0
            after = next_of[pos] = next_of[right]
            if after != -1:
                prev_of[after] = pos
            before = prev_of[pos]
            if before != -1:
                enqueue(before, pos)
            if after != -1:
                enqueue(pos, after)
        kept_ids = [token_id for token_id, length in zip(ids, lengths) if length]
        kept_lengths = [length for length in lengths if length]
        return kept_ids, kept_lengths, parts

    # ----- runs of single-char tokens, cut into segments ----------------------------------

    def _merged_run(self, text: str) -> tuple[list[int], list[int]]:
        """The merged symbols of `text`, one single-char token per char to begin with: ids and
        how many chars each holds, segment by segment when the text is long. KeyError when a
        char is not a token."""
        if len(text) <= SEGMENT_MIN_LENGTH or not self.segmentable():
            chars = self.chars
            ids = [chars[char] for char in text]
            return self._merged(ids, [1] * len(ids))
        cache = self.segment_cache
        ids, counts = [], []
        for segment in self.segments(text):
            found = cache.get(segment)
            if found is None:
                chars = self.chars
                found = self._merged([chars[char] for char in segment], [1] * len(segment))
                cache.offer(segment, found)
            ids += found[0]
            counts += found[1]
        return ids, counts

    def segmentable(self) -> bool:
        """Whether every merged token spells the chars it holds (ids are unique and each merge
        makes its two tokens joined), so that no merge crosses a cut."""
        if self._segmentable is None:
            strings = dict(zip(self.vocab.values(), self.vocab))  # C loops: 500k merges of a 262k vocab
            lefts, rights = list(map(itemgetter(0), self.ranks)), list(map(itemgetter(1), self.ranks))
            joined = map(self.new_ids.__getitem__, self.ranks.values())  # a repeated pair: its last rank's
            self._segmentable = (len(strings) == len(self.vocab) and strings.keys() >= {*lefts, *rights}
                                 and list(map(strings.get, joined))
                                 == list(map(str.__add__, map(strings.get, lefts), map(strings.get, rights))))
        return self._segmentable

    def segments(self, text: str) -> list[str]:
        """`text` split at every cut (a pair of single-char tokens that no token holds together)."""
        starts = self.cuts(text, text)
        if not starts:
            return [text]
        return [text[start:end] for start, end in zip([0, *starts], [*starts, len(text)])]

    def cuts(self, ends: str, starts: str) -> list[int]:
        """Every i where no token holds ends[i - 1] followed by starts[i] and both are
        single-char tokens."""
        if self._joinable is None:
            # Every two adjacent chars of the tokens joined by NUL, in C loops: the pairs across a NUL
            # are extra, and an extra pair only leaves a cut out, which merging the longer segment
            # makes up for (a 262k-token vocab: 0.15 s, where a loop over the tokens took 1.2 s).
            joined = "\0".join(self.vocab)
            self._joinable = frozenset(map(str.__add__, joined, joined[1:]))
        joinable, chars = self._joinable, self.chars
        return [i for i, pair in enumerate(map(str.__add__, ends, starts[1:]), 1)
                if pair not in joinable and pair[0] in chars and pair[1] in chars]

    # ----- words --------------------------------------------------------------------------

    def tokenize_word(self, text: str) -> tuple[list[int], list[int]] | None:
        """The merged symbols (ids, byte lengths) of an undecorated word, one symbol per char;
        None when a char is not a token (`BPE._symbols_with_unknowns` decides then)."""
        try:
            ids, counts = self._merged_run(text)
        except KeyError:
            return None
        if text.isascii():
            return ids, counts
        byte_ends = [0, *accumulate(_char_lengths(text))]
        char_ends = [0, *accumulate(counts)]
        return ids, [byte_ends[end] - byte_ends[start] for start, end in zip(char_ends, char_ends[1:])]

    def set_byte_fallback(self, byte_ids: list[int | None]) -> None:
        """Learn the id of each byte's <0xHH> token (None: missing), for `columns` of a model
        with byte fallback: an unknown char then becomes its bytes' tokens."""
        self.fallback_ids = list(byte_ids)

    def columns(self, text: str, vocab_r: Any) -> Columns | None:
        """An undecorated word's tokens as a tokenizer's columns: ids, strings (from `vocab_r`)
        and char spans (a token that cuts a char covers all of it). A char that is not a token
        becomes its bytes' <0xHH> tokens (each 1 byte long, as HF counts them) with byte
        fallback; None when a char has neither (`BPE.tokenize` decides: unk, fused or not)."""
        found = self._spelled(text)
        if found is None:
            return None
        ids, counts, char_of = found
        ends = list(accumulate(counts))
        if char_of is None:
            spans = list(zip([0, *ends], ends))
        else:
            spans = [(char_of[end - count], char_of[end - 1] + 1) for count, end in zip(counts, ends)]
        return ids, [vocab_r[token_id] for token_id in ids], spans

    def ids(self, text: str) -> list[int] | None:
        """The ids of `columns` alone; None where `columns` is None."""
        found = self._spelled(text)
        return None if found is None else found[0]

    def _spelled(self, text: str) -> tuple[list[int], list[int], list[int] | None] | None:
        """The merged symbols of a word (ids, how many symbols each holds) and, when a char fell
        back to its bytes, the char of each initial symbol (else the symbols are the chars)."""
        try:
            return (*self._merged_run(text), None)
        except KeyError:
            pass
        if self.fallback_ids is None:
            return None
        ids: list[int] = []
        char_of: list[int] = []
        for index, char in enumerate(text):
            token_id = self.chars.get(char)
            spelled = [token_id] if token_id is not None else \
                [self.fallback_ids[byte] for byte in char.encode("utf-8", "surrogatepass")]
            if None in spelled:
                return None
            ids += spelled
            char_of += [index] * len(spelled)
        return (*self._merged(ids, [1] * len(ids)), char_of)

    # ----- byte-level pieces --------------------------------------------------------------

    def set_byte_alphabet(self, alphabet: str) -> None:
        """Learn the char that stands for each byte (the 256 chars of the byte-level alphabet, in
        byte order), for `utf8_ids` and `utf8_tokens`."""
        if len(alphabet) != 256:
            raise ValueError("a byte-level alphabet has 256 chars")
        self.alphabet = alphabet

    def _byte_chars(self, data: bytes) -> str:
        """`data` in the byte-level alphabet, one char per byte."""
        if self.alphabet is None:
            raise ValueError("set_byte_alphabet first")
        return charmap_decode(data, "strict", self.alphabet)[0]

    def utf8_ids(self, piece: str) -> list[int] | None:
        """The ids of `piece` as byte-level BPE gives them (its UTF-8 bytes, one symbol each,
        merged); None when a byte's char is not a token."""
        chars = self._byte_chars(piece.encode("utf-8"))
        try:
            return self._merged_run(chars)[0]
        except KeyError:
            return None

    def utf8_tokens(self, piece: str, vocab_r: Any) -> Columns | None:
        """`utf8_ids` with each token's string (from `vocab_r`) and its char span within `piece`
        (a token that cuts a char covers all of it); None when a byte's char is not a token."""
        chars = self._byte_chars(piece.encode("utf-8"))
        try:
            ids, counts = self._merged_run(chars)
        except KeyError:
            return None
        ends = list(accumulate(counts))
        return ids, [vocab_r[token_id] for token_id in ids], char_spans(piece, list(zip([0, *ends], ends)))

    def set_token_strings(self, vocab_r: Any) -> None:
        """Keep the model's id -> token string map, for `piece_tokens`."""
        self.token_strings = vocab_r

    def piece_tokens(self, piece: str) -> Columns | None:
        """`BPE.tokenize_utf8` of a model without ignore_merges: None for an empty piece, else
        `utf8_tokens` with the strings of `set_token_strings`."""
        if not piece or self.token_strings is None:
            return None
        return self.utf8_tokens(piece, self.token_strings)

    def whole_piece_tokens(self, piece: str) -> Columns | None:
        """`piece_tokens` of a model with HF's ignore_merges: a piece whose byte-level chars are
        a token is that token, spanning the piece; any other one merged."""
        if not piece or self.token_strings is None:
            return None
        token_id = self.vocab.get(self._byte_chars(piece.encode("utf-8")))
        if token_id is not None:
            return [token_id], [self.token_strings[token_id]], [(0, len(piece))]
        return self.utf8_tokens(piece, self.token_strings)

    def encode_utf8_spans(self, data: bytes, ends: bytes, whole: bool, counts: bytes | None = None) -> Any:
        """tiktoken's `encode_ordinary` after the split: the ids of each piece of `data` (UTF-8
        bytes cut at `ends`, packed Py_ssize_t from `Scanner.utf8_ends`), a piece that is a whole
        token given as that token when `whole`, any other one merged. With `counts` (pieces per
        text, packed, from `Scanner.utf8_ends_batch`), a list of ids per text. None when a byte's
        char is not a token."""
        text = self._byte_chars(data)
        if not self.chars.keys() >= set(text):
            return None
        ids: list[int] = []
        marks: list[int] = []  # how many ids after each piece
        start = 0
        for stop in memoryview(ends).cast("n"):
            piece = text[start:stop]
            token_id = self.vocab.get(piece) if whole and len(piece) > 1 else None
            ids += self._merged_run(piece)[0] if token_id is None else [token_id]
            marks.append(len(ids))
            start = stop
        if counts is None:
            return ids
        per_text = []
        piece = done = 0
        for count in memoryview(counts).cast("n"):
            piece += count
            end = marks[piece - 1] if piece else 0
            per_text.append(ids[done:end])
            done = end
        return per_text

    def build_whole(self) -> None:
        """Nothing to build: `encode_utf8_spans` looks a whole piece up in the vocab."""


def _merged_token(left: str, right: str, cut: int, rank: int) -> str:
    """`left + right` minus the first `cut` bytes of `right` (HF cuts the prefix's byte length blindly)."""
    if not cut:
        return left + right
    right_bytes = right.encode()
    tail = right_bytes[cut:]
    if len(right_bytes) < cut:
        raise LoadPanic(f"merge {left!r} {right!r}: `{right}` is shorter than the "
                        "continuing_subword_prefix, which HF cannot load (it panics)", field=f"merges[{rank}]")
    try:
        return left + tail.decode()
    except UnicodeDecodeError:
        # The cut split a char: HF builds invalid UTF-8, which no vocab entry can equal.
        raise _out_of_vocabulary(left + tail.decode("utf-8", "replace"), left, right, rank) from None


def _out_of_vocabulary(token: str, left: str, right: str, rank: int) -> FormatError:
    """HF's error for a merge whose part or result is not in the vocab."""
    return FormatError(f"Token `{token}` out of vocabulary (merge {left!r} {right!r})", field=f"merges[{rank}]")


def _utf8_len(text: str) -> int:
    """The UTF-8 byte length of `text` (a lone surrogate counts 3, as its WTF-8 form)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _char_lengths(word: str) -> list[int]:
    """The UTF-8 byte length of each char of `word`."""
    if word.isascii():
        return [1] * len(word)
    return [1 if char < "\x80" else 2 if char < "\u0800" else 3 if char < "\U00010000" else 4
            for char in word]


def _as_f32(value: float) -> float:
    """`value` rounded to f32, as the shortest decimal that rounds back to it (how serde prints an f32)."""
    try:
        single = struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)
    for digits in range(1, 10):
        candidate = float(f"{single:.{digits}g}")
        if struct.unpack("f", struct.pack("f", candidate))[0] == single:
            return candidate
    return single


def _all_string_pairs(items: list[Any]) -> bool:
    """True when every item is a list or tuple of two strings (checked by type sets, in C: a
    200k-merge file is checked in milliseconds)."""
    return (set(map(type, items)) <= {list, tuple} and set(map(len, items)) <= {2}
            and set(map(type, chain.from_iterable(items))) <= {str})


def _merges_field(value: Any) -> list[tuple[str, str]]:
    """Check the "merges" field: all [a, b] pairs, or all legacy "a b" strings."""
    if not isinstance(value, list):
        raise FormatError(f"expected a list, got {type(value).__name__}", field="merges")
    if _all_string_pairs(value):
        return [(left, right) for left, right in value]
    if not all(isinstance(item, str) for item in value):
        raise FormatError('expected every merge to be a pair ["a", "b"], or every merge a string "a b"',
                          field="merges")
    core = _backend.bpe
    found = (merge_pairs if core is None else core.merge_pairs)(value)
    if isinstance(found, int):
        number = sum(not is_merges_header(line) for line in value[:found]) + 1
        raise FormatError(f"Merges text file invalid at line {number}: {value[found]!r} is not "
                          "two tokens separated by one space", field=f"merges[{found}]")
    return found


def _optional(data: dict, name: str, kinds: type | tuple[type, ...], expected: str) -> Any:
    """An optional field: absent or null gives None; otherwise it must be of `kinds` (and finite)."""
    value = data.get(name)
    if value is None:
        return None
    wrong_bool = isinstance(value, bool) and kinds is not bool
    if wrong_bool or not isinstance(value, kinds) or (isinstance(value, float) and not math.isfinite(value)):
        raise FormatError(f"expected {expected} or null, got {value!r}", field=name)
    return value
