"""The text encoder: added tokens -> normalizer -> pre-tokenizer -> model, for one set of components.

A Tokenizer holds one TextEncoder, built when it first encodes and again when a component or
the backend changes. It runs the tokenizer's encode plan (plan.py) and keeps what the model gave
for short pieces, so `encode`, `encode_batch`, `encode_ids` and `sample` share one path per
kind of text:

- a text in which no added token can match, behind a pre-tokenizer that gives its pieces
  alone, is assembled from cached pieces (`text_columns`; `plain_ids` for the ids alone);
- any other text is cut around its added tokens, pre-tokenized, and each split's tokens are
  collected into an Encoding (`into_encoding`).

Post-processing (special tokens, truncation, padding) stays with the Tokenizer.
"""

from __future__ import annotations

from itertools import starmap
from typing import Any, Callable

from . import _backend
from .encoding import Encoding
from .models.base import Columns, token_columns
from .pipeline.added_vocabulary import AddedVocabulary
from .pipeline.cache import Cache, cache_class
from .pipeline.normalized import NormalizedString, PreTokenizedString, Split, Token, char_spans, unaligned_offsets
from .pipeline.pieces import PieceEntry, TextColumns, word_entry
from .plan import EncodePlan, build_plan
from .specials import Segments

# Pieces encoded once and reused: bounded like HF's model caches, and only for short pieces.
CACHE_CAPACITY = 10_000
CACHE_MAX_CHARS = 256


class TextEncoder:
    """How one tokenizer's texts become tokens: its plan and the caches of what its model gave."""

    def __init__(self, normalizer: Any, pre_tokenizer: Any, model: Any, added: AddedVocabulary):
        self.normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.model = model
        self.added = added
        self.plan: EncodePlan = build_plan(model, pre_tokenizer)
        # Each keeps up to CACHE_CAPACITY pieces shorter than CACHE_MAX_CHARS chars. The word and
        # piece caches admit a piece the second time it is computed (`Cache.offer`); the ids cache
        # keeps every piece until it is full, as HF's caches do. Their keys differ in kind: a
        # split (its model columns), a piece pre-tokenized alone (its tokens), a piece (its ids).
        caches = cache_class()  # the backend's: the compiled loops offer to its twin with a C call
        self.word_cache: Cache = caches(CACHE_CAPACITY)  # split -> (ids, tokens, char spans)
        self.piece_cache: Cache = caches(CACHE_CAPACITY)  # piece -> PieceEntry
        self.ids_cache: dict[str, list[int]] = {}  # piece -> its ids (filled by `plan.loops.piece_ids`)

    def current(self) -> bool:
        """Whether the plan still fits the backend and the model's kernel (else build a new encoder)."""
        return self.plan.backend == _backend.backend and self.plan.version == self.model.kernel_version

    def clear(self) -> None:
        """Empty the caches (a cold pass starts from here)."""
        self.word_cache.clear()
        self.piece_cache.clear()
        self.ids_cache.clear()

    # ----- whole texts ------------------------------------------------------------------

    def normalized(self, text: str) -> NormalizedString | None:
        """The normalized text; None when an added token may match in the raw text (the
        pipeline then cuts it out before normalizing the rest)."""
        if self.added.may_match(text, normalized=False):
            return None
        ns = NormalizedString(text)
        if self.normalizer is not None:
            self.normalizer.normalize(ns)
        return ns

    def text_columns(self, ns: NormalizedString) -> TextColumns | None:
        """The ids, tokens, offsets and word indices of a normalized text, built from cached
        pieces; None when an added token may match in it, the plan has no pieces, or an empty
        token's offsets would have to go through the text's alignments.

        A piece's offsets are cached within the piece's text; the alignment of the normalized
        text maps them to the input, as slicing and the pre-tokenizer's edits would.
        """
        plan = self.plan
        if plan.find is None or self.added.may_match(ns.normalized, normalized=True):
            return None
        alignments = None if ns.is_identity() else ns.alignments
        columns: TextColumns | None = plan.loops.assemble(*plan.find(ns.normalized), self.piece_cache,
                                                          self.piece_entry, alignments, plan.direct,
                                                          CACHE_MAX_CHARS, plan.mark)
        return columns

    def text_encoding(self, text: str, type_id: int, word_index: int | None,
                      tokenize: Callable[[str], list[Any]] | None = None) -> Encoding:
        """One text's Encoding, before post-processing (all its tokens in word `word_index` when
        given). `tokenize` replaces the model's own (a sampler), uncached."""
        normalized = self.normalized(text)
        if normalized is not None and tokenize is None:
            columns = self.text_columns(normalized)
            if columns is not None:
                return columns_encoding(*columns, type_id, word_index)
        return self.into_encoding(self.pretokenized(text, normalized), type_id, word_index, tokenize)

    def pretokenized(self, text: str, ns: NormalizedString | None) -> PreTokenizedString:
        """The text cut around its added tokens (normalized here unless `ns` is its normalized
        form already), then pre-tokenized."""
        if ns is None:
            normalize = self.normalizer.normalize if self.normalizer is not None else None
            pretokenized = self.added.extract_and_normalize(normalize, text)
        else:
            pretokenized = PreTokenizedString(text)
            pretokenized.splits = [s for s in self.added.split_normalized(ns) if s.normalized.normalized]
        if self.pre_tokenizer is not None:
            self.pre_tokenizer.pre_tokenize(pretokenized)
        return pretokenized

    def segments_encoding(self, text: str, segments: Segments) -> Encoding:
        """A text the special-token policy cut into segments: a special token's id, or text that
        goes through the pre-tokenizer and the model."""
        pretokenized = PreTokenizedString(text)
        whole = pretokenized.splits[0].normalized
        splits = []
        for start, stop, special_id in segments:
            part = whole.slice(start, stop)
            if special_id is None:
                splits.append(Split(part))
            else:
                content = text[start:stop]
                splits.append(Split(part, [Token(special_id, content, (0, len(content.encode())))]))
        pretokenized.splits = splits
        if self.pre_tokenizer is not None:
            self.pre_tokenizer.pre_tokenize(pretokenized)
        return self.into_encoding(pretokenized, 0, None)

    def plain_ids(self, text: str) -> list[int] | None:
        """The model's ids of a text through the normalizer's and pre-tokenizer's string forms;
        None where only the Encoding path can tell: an added token may be in the text, the plan
        has no ids path, or a piece has no ids that way."""
        plan = self.plan
        if plan.ids_of is None or self.added.may_match(text, normalized=False):
            return None
        normalized = text if self.normalizer is None else self.normalizer.normalize_str(text)
        if self.added.may_match(normalized, normalized=True):
            return None
        if plan.scanned_ids is not None:
            return plan.scanned_ids(normalized)
        if plan.find is None:
            return None
        ids: list[int] | None = plan.loops.piece_ids(plan.find(normalized)[0], self.ids_cache, plan.ids_of,
                                                     plan.mark or "", CACHE_CAPACITY, CACHE_MAX_CHARS)
        return ids

    # ----- pieces and splits ------------------------------------------------------------

    def piece_entry(self, piece: str) -> PieceEntry:
        """The tokens of one piece pre-tokenized alone (cached when there is room): the model's
        columns of a piece that is one word, else the pipeline's splits of the piece."""
        plan = self.plan
        if plan.word_columns is not None and plan.mark is None:
            entry = word_entry(*plan.word_columns(piece))
        else:
            pretokenized = PreTokenizedString(piece)
            self.pre_tokenizer.pre_tokenize(pretokenized)
            encoding = self.into_encoding(pretokenized, 0, None)
            entry = (encoding.ids, encoding.tokens, encoding.offsets, encoding.word_ids,
                     len(pretokenized.splits), any(starmap(int.__eq__, encoding.offsets)))
        if len(piece) < CACHE_MAX_CHARS:
            self.piece_cache.offer(piece, entry)
        return entry

    def into_encoding(self, pretokenized: PreTokenizedString, type_id: int, word_index: int | None,
                      tokenize: Callable[[str], list[Any]] | None = None) -> Encoding:
        """Collect the tokens of all splits (running the model, or `tokenize`, where needed)
        into an Encoding."""
        ids: list[int] = []
        tokens: list[str] = []
        offsets: list[tuple[int, int]] = []
        words: list[int | None] = []
        cached = self.word_cache.get
        overrun = self.plan.kernel.overrun
        for index, split in enumerate(pretokenized.splits):
            ns = split.normalized
            if split.tokens is None and overrun:
                word_ids, word_tokens, word_offsets = _overrun_columns(
                    ns, (tokenize or self.model.tokenize)(ns.normalized), pretokenized.original)
                ids += word_ids
                tokens += word_tokens
                offsets += word_offsets
                words += [index if word_index is None else word_index] * len(word_ids)
                continue
            if split.tokens is None and tokenize is not None:
                word_ids, word_tokens, spans = token_columns(ns.normalized, tokenize)
            elif split.tokens is None:
                word_ids, word_tokens, spans = cached(ns.normalized) or self.word_columns(ns.normalized)
            else:
                word_ids = [token[0] for token in split.tokens]
                word_tokens = [token[1] for token in split.tokens]
                spans = char_spans(ns.normalized, [token[2] for token in split.tokens])
            if not word_ids:
                continue
            ids += word_ids
            tokens += word_tokens
            if ns.is_identity():
                shift = ns.original_shift
                offsets += [(shift + s, shift + e) for s, e in spans] if shift else spans
            else:
                offsets += ns.spans_to_original(spans)
            words += [index if word_index is None else word_index] * len(word_ids)
        n = len(ids)
        return Encoding(ids, [type_id] * n, tokens, offsets, [0] * n, [1] * n, words, [], {})

    def word_columns(self, text: str) -> Columns:
        """The model's tokens of one split: ids, strings and char spans within the split."""
        cached: Columns | None = self.word_cache.get(text)
        if cached is not None:
            return cached
        kernel = self.plan.kernel
        result = kernel.columns(text)
        if len(text) < CACHE_MAX_CHARS and kernel.deterministic:
            self.word_cache.offer(text, result)
        return result


def columns_encoding(ids: list[int], tokens: list[str], offsets: list[tuple[int, int]],
                     words: list[int | None], type_id: int, word_index: int | None) -> Encoding:
    """The Encoding of a text's columns (all its words one word when `word_index` is given)."""
    n = len(ids)
    if word_index is not None:
        words = [word_index] * n
    return Encoding(ids, [type_id] * n, tokens, offsets, [0] * n, [1] * n, words, [], {})


def _overrun_columns(ns: NormalizedString, model_tokens: list[Any], original: str
                     ) -> tuple[list[int], list[str], list[tuple[int, int]]]:
    """The ids, strings and original offsets of a split's tokens when the model's byte spans may
    run past the split: those keep HF's unaligned form (`unaligned_offsets`), the others map
    through the split's alignment."""
    size = len(ns.normalized.encode("utf-8", "surrogatepass"))
    offsets = []
    for token in model_tokens:
        start, end = token[2]
        if end > size and start != end:
            offsets.append(unaligned_offsets(original, start, end))
        else:
            offsets += ns.spans_to_original(char_spans(ns.normalized, [(start, end)]))
    return [t[0] for t in model_tokens], [t[1] for t in model_tokens], offsets
