"""Unigram: the most probable segmentation of a pre-token under per-piece log-probabilities.

Semantics follow HF `tokenizers` (not SentencePiece): every vocabulary entry can match
text (control and byte pieces too), scores are summed in float64, an unknown char costs
`min(all scores) - 10`, adjacent unknowns are fused, and byte fallback spells a fused
unknown as `<0xHH>` tokens that all share its span.

Pieces are found with a char trie (nested dicts): in CPython it measured about 1.6x
faster than looking up growing prefix slices in one dict, at twice the memory.
HF reads the scores with serde_json's float parsing: see pipeline/json_numbers.py.
"""

from __future__ import annotations

import math
import random
import struct
from array import array
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from .. import _backend
from ..errors import FormatError, TokenizationError
from ..pipeline.cache import Cache
from ..pipeline.fields import USIZE_MAX, as_bool, as_uint
from ..pipeline.json_numbers import serde_json_f64
from .base import Columns, Model, ModelKernel, Token, token_columns
from .lattice import Lattice

_backend.load("unigram")  # the compiled twin, when it was built

UNK_PENALTY = 10.0
# sentencepiece (0.2.1 and later) makes the path scores relative again, in float32, once the
# best path up to a char start passes this magnitude (its kScoreResetThreshold).
SCORE_RESET = 100_000.0
MISSING_UNK_ID = "Encountered an unknown token but `unk_id` is missing"
CACHE_CAPACITY = 10_000
CACHE_MAX_CHARS = 256


class Unigram(Model):
    """A Unigram language-model tokenizer over `vocab` = [(piece, score), ...], id = index."""

    def __init__(
        self,
        vocab: Sequence[tuple[str, float]] | None = None,
        unk_id: int | None = None,
        byte_fallback: bool = False,
    ):
        if vocab is None:
            vocab, unk_id = [("<unk>", 0.0)], 0
        self.vocab: list[tuple[str, float]] = [(piece, float(score)) for piece, score in vocab]
        if unk_id is not None:
            if not self.vocab:
                raise FormatError("The vocabulary is empty but at least <unk> is needed", field="vocab")
            if not 0 <= unk_id < len(self.vocab):
                raise FormatError("The `unk_id` is larger than vocabulary size", field="unk_id")
        self.unk_id = unk_id
        self.byte_fallback = byte_fallback
        # A repeated piece keeps its last id, as in HF.
        self.token_to_ids: dict[str, int] = {piece: index for index, (piece, _) in enumerate(self.vocab)}
        self.min_score = min((score for _, score in self.vocab), default=math.inf)
        self.unk_score = self.min_score - UNK_PENALTY
        # Ids the trie leaves out: SentencePiece never matches its control, unknown, byte and
        # unused pieces in text. tokenizer.json cannot say this (see `without_matching`).
        self.reserved_ids: frozenset[int] = frozenset()
        # Rounds each path score to float32 as sentencepiece does (None: float64, as HF). Not
        # part of tokenizer.json either (see `sum_in_float32`).
        self._round: Callable[[float], float] | None = None
        # (id, name) of the `<0xHH>` piece of each byte value, None where the vocabulary lacks it
        self._byte_pieces = [self._piece_id(f"<0x{byte:02X}>") for byte in range(256)]
        self._cache = Cache(CACHE_CAPACITY)  # pre-token -> tokens
        # The reference Viterbi and the compiled one (`_unigram.Viterbi`), each built on first use
        # (`viterbi` picks one); the compiled one is False when the ids do not fit it.
        self._reference: Viterbi | None = None
        self._compiled: Any = None

    def without_matching(self, reserved_ids: frozenset[int]) -> None:
        """Never match these ids in text (they stay in the vocabulary, for ids and decoding)."""
        self.reserved_ids = frozenset(reserved_ids)
        self._forget_viterbis()

    def sum_in_float32(self, unk_score: float) -> None:
        """Add path scores in float32 with this unknown-char score, as sentencepiece's Viterbi does."""
        self._round = _to_float32
        self.unk_score = _to_float32(unk_score)
        self._forget_viterbis()

    def _forget_viterbis(self) -> None:
        """Drop the Viterbis and the cached tokens built before a change of the matching rules
        (and a tokenizer's encode plan, which holds a Viterbi)."""
        self._reference = None
        self._compiled = None
        self._cache.clear()
        self.kernel_version += 1

    def _piece_id(self, piece: str) -> tuple[int, str] | None:
        """(id, piece) if `piece` is in the vocabulary, else None."""
        token_id = self.token_to_ids.get(piece)
        return None if token_id is None else (token_id, piece)

    def tokenize(self, sequence: str) -> list[Token]:
        """Segment one pre-token; offsets are UTF-8 byte offsets within it."""
        cached = self._cache.get(sequence)
        if cached is not None:
            return list(cached)
        tokens = self._tokens(sequence, self._segment(sequence))
        if len(sequence) < CACHE_MAX_CHARS:
            self._cache.offer(sequence, tuple(tokens))
        return tokens

    def kernel(self) -> ModelKernel:
        """The Viterbi of the backend in use (see `viterbi`), read as a word's columns and ids
        (straight from the Viterbi for the words it can, with no call of this model's)."""
        viterbi = self.viterbi()
        return ModelKernel(partial(self.viterbi_columns, viterbi=viterbi),
                           fast_columns=partial(viterbi.columns, byte_fallback=self.byte_fallback),
                           ids=partial(viterbi.ids, byte_fallback=self.byte_fallback), sample=self.sample)

    def viterbi_columns(self, sequence: str, viterbi: Any) -> Columns:
        """A word's ids, token strings and char spans by `viterbi` (a `Viterbi`); `tokenize`'s
        where an unknown span is spelled in bytes or the compiled Viterbi leaves the word to it."""
        found = viterbi.columns(sequence, self.byte_fallback)
        return found if found is not None else token_columns(sequence, self.tokenize)

    def encode(self, sequence: str) -> list[str]:
        """The best segmentation as strings, adjacent unknowns fused (HF's `Unigram::encode`)."""
        return [sequence[start:end] for start, end, _ in self._segment(sequence)]

    def _segment(self, text: str) -> list[tuple[int, int, int]]:
        """The best path by the Viterbi of the backend in use; the reference's where the compiled
        one declines (it would raise, or a float32 sum overflows), which then decides."""
        spans = self.viterbi().best_path(text)
        return spans if spans is not None else self.reference_viterbi.best_path(text)

    def build_compiled(self) -> None:
        """Build the Viterbi of the backend in use now, not on the first text (loading a file does)."""
        self.viterbi()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the compiled Viterbi (a C object): a copy builds its own."""
        return {**self.__dict__, "_compiled": None}

    def viterbi(self) -> Any:
        """The Viterbi of the backend in use, built on first use: the compiled one
        (`_unigram.Viterbi`) on the compiled backend when the model's ids fit its 31 bits, else
        the reference (`Viterbi`). The one place that reads the backend."""
        core = _backend.unigram
        if core is not None and self._compiled is None:
            try:
                self._compiled = core.Viterbi(self.token_to_ids, self.vocab, self.reserved_ids, self.unk_score,
                                              self.unk_id, self._round is not None)
            except OverflowError:
                self._compiled = False
        return self._compiled if core is not None and self._compiled else self.reference_viterbi

    @property
    def reference_viterbi(self) -> Viterbi:
        """The pure-Python Viterbi (built on first use: its trie is most of a load's time)."""
        if self._reference is None:
            self._reference = Viterbi(self.token_to_ids, self.vocab, self.reserved_ids, self.unk_score,
                                      self.unk_id, self._round is not None)
        return self._reference

    def _tokens(self, text: str, spans: list[tuple[int, int, int]]) -> list[Token]:
        """Tokens with byte offsets; an unk span is looked up, else spelled in bytes, else unk."""
        unk_id = self.unk_id
        ascii_only = text.isascii()
        tokens = []
        offset = 0
        for start, end, token_id in spans:
            value = text[start:end]
            if ascii_only:
                offsets = (start, end)
            else:
                width = len(value.encode("utf-8"))
                offsets = (offset, offset + width)
                offset += width
            if token_id == unk_id:
                token_id = self.token_to_ids.get(value)
                if token_id is None or token_id in self.reserved_ids:
                    byte_tokens = self._byte_tokens(value, offsets) if self.byte_fallback else None
                    if byte_tokens is not None:
                        tokens.extend(byte_tokens)
                        continue
                    token_id = unk_id
            tokens.append(Token(token_id, value, offsets))
        return tokens

    def _byte_tokens(self, value: str, offsets: tuple[int, int]) -> list[Token] | None:
        """`<0xHH>` tokens for each UTF-8 byte of `value`, or None if one is not in the vocabulary."""
        pieces = [self._byte_pieces[byte] for byte in value.encode("utf-8")]
        if None in pieces:
            return None
        return [Token(token_id, name, offsets) for token_id, name in pieces]

    def starts(self, text: str) -> list[list[tuple[int, int]]]:
        """Per char start, the (end, id) of every piece match there, shortest first, then unk
        where no single-char piece starts (the candidates Viterbi and training weigh)."""
        starts: list[list[tuple[int, int]]] = self.viterbi().starts(text)
        return starts

    def spans(self, text: str) -> list[tuple[int, int, int, float]]:
        """Every (start, end, id, score) piece match in chars, start-major, plus unk where no single-char piece starts."""
        found = []
        for start, group in enumerate(self.starts(text)):
            single_char = self.token_to_ids.get(text[start])
            matchable = single_char is not None and single_char not in self.reserved_ids
            for end, token_id in group:
                unknown = token_id == self.unk_id and end == start + 1 and not matchable
                found.append((start, end, token_id, self.unk_score if unknown else self.vocab[token_id][1]))
        return found

    def populate_nodes(self, lattice: Lattice) -> None:
        """Insert every matching piece, and unk where no single-char piece starts, into `lattice`."""
        for start, end, token_id, score in self.spans(lattice.sentence):
            lattice.insert(start, end - start, score, token_id)

    def nbest(self, sequence: str, n: int, timeout_ms: float = 0.0) -> list[list[Token]]:
        """The `n` best segmentations, best first, each with unknowns fused as `tokenize` does
        (a search running past `timeout_ms` gives the best one alone: sentencepiece's n-best timeout)."""
        if not sequence:
            return [[]] if n > 0 else []
        paths = self.lattice(sequence).nbest(n, timeout_ms)
        return [self._tokens(sequence, self._node_spans(path)) for path in paths]

    def sample(self, sequence: str, alpha: float, nbest_size: int = -1,
               rng: random.Random | None = None) -> list[Token]:
        """Subword regularization as sentencepiece samples: a segmentation drawn with weight
        exp(alpha * score) among all of them (nbest_size < 0) or among the nbest_size best
        (nbest_size > 1); nbest_size 0 or 1 gives the best one."""
        rng = rng or random.Random()
        if nbest_size in (0, 1):
            return self.tokenize(sequence)
        lattice = self.lattice(sequence)
        if nbest_size < 0:
            return self._tokens(sequence, self._node_spans(lattice.sample(alpha, rng)))
        paths = [path for path in lattice.nbest(nbest_size) if path]
        if not paths:
            return []
        scores = [alpha * sum(node.score for node in path) for path in paths]
        top = max(scores)
        chosen = rng.choices(paths, [math.exp(score - top) for score in scores])[0]
        return self._tokens(sequence, self._node_spans(chosen))

    def _node_spans(self, path: list) -> list[tuple[int, int, int]]:
        """(char start, char end, id) of lattice nodes, adjacent unknowns fused."""
        spans: list[tuple[int, int, int]] = []
        for node in path:
            if node.id == self.unk_id and spans and spans[-1][2] == self.unk_id:
                spans[-1] = (spans[-1][0], node.pos + node.length, node.id)
            else:
                spans.append((node.pos, node.pos + node.length, node.id))
        return spans

    def lattice(self, sentence: str) -> Lattice:
        """A populated lattice of `sentence` (for n-best lists and training)."""
        lattice = Lattice(sentence, bos_id=len(self.vocab) + 1, eos_id=len(self.vocab) + 2)
        self.populate_nodes(lattice)
        return lattice

    def clear_cache(self) -> None:
        """Forget cached segmentations."""
        self._cache.clear()

    def token_to_id(self, token: str) -> int | None:
        """The id of `token`, or None."""
        return self.token_to_ids.get(token)

    def id_to_token(self, token_id: int) -> str | None:
        """The piece at index `token_id`, or None."""
        if 0 <= token_id < len(self.vocab):
            return self.vocab[token_id][0]
        return None

    def get_vocab(self) -> dict[str, int]:
        """A copy of the piece -> id map."""
        return dict(self.token_to_ids)

    def get_vocab_size(self) -> int:
        """Number of entries, repeated pieces included (as HF counts)."""
        return len(self.vocab)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json "model" object, keys in HF's order."""
        return {
            "type": "Unigram",
            "unk_id": self.unk_id,
            "vocab": [[piece, score] for piece, score in self.vocab],
            "byte_fallback": self.byte_fallback,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Unigram:
        """Build from the tokenizer.json "model" object; only "vocab" is required."""
        if not isinstance(data, dict):
            raise FormatError(f"expected an object, got {type(data).__name__}")
        kind = data.get("type", "Unigram")
        if kind != "Unigram":
            raise FormatError(f"invalid value: string {kind!r}, expected Unigram", field="type")
        if "vocab" not in data:
            raise FormatError("Missing vocab", field="vocab")
        unk_id = data.get("unk_id")
        if unk_id is not None:
            unk_id = as_uint(unk_id, "unk_id", USIZE_MAX)
        byte_fallback = as_bool(data.get("byte_fallback", False), "byte_fallback")
        return cls(_read_pieces(data["vocab"]), unk_id, byte_fallback)


class Viterbi:
    """A Unigram model's matchable pieces (a char trie of nested dicts) and its unknown-char
    rule, and its Viterbi: the reference twin of `_unigram.Viterbi`, with the same methods.

    Each method answers every text: where the compiled one returns None because this one
    raises (an unknown char wins and there is no unk id, or a float32 sum overflows where
    struct.pack raises), this one raises; `columns` and `ids` leave a word whose unknown span
    needs byte fallback to the model (None), as the compiled ones do.
    """

    def __init__(self, token_to_ids: dict[str, int], vocab: list[tuple[str, float]], reserved_ids: frozenset[int],
                 unk_score: float, unk_id: int | None, float32: bool):
        self.token_to_ids = token_to_ids
        self.reserved_ids = reserved_ids
        self.unk_score = unk_score
        self.unk_id = unk_id
        self.float32 = float32
        self.trie = _build_trie(token_to_ids, vocab, reserved_ids)
        self.longest = max(map(len, token_to_ids), default=0)  # chars of the longest piece

    def starts(self, text: str) -> list[list[tuple[int, int]]]:
        """Per char start, the (end, id) of every piece match there, shortest first, then the
        unk id where no single-char piece starts (and the model has one)."""
        longest, unk_id, trie = self.longest, self.unk_id, self.trie
        starts = []
        for start in range(len(text)):
            group = []
            children, end = trie, start
            for char in text[start : start + longest]:
                node = children.get(char)
                if node is None:
                    break
                end += 1
                children, entry = node
                if entry is not None:
                    group.append((end, entry[0]))
            if (not group or group[0][0] != start + 1) and unk_id is not None:
                group.append((start + 1, unk_id))
            starts.append(group)
        return starts

    def best_path(self, text: str) -> list[tuple[int, int, int]]:
        """The best (char start, char end, id) spans, adjacent unk spans fused.

        Every char start proposes each piece that begins there (a trie walk, as in `starts`,
        inlined for speed), and an unknown char where no single-char piece does. A proposal
        replaces the best path ending at the same place only when strictly better, so ties keep
        the path whose last piece starts leftmost (is longest).
        """
        length = len(text)
        trie = self.trie
        longest = self.longest
        unk_id, unk_score, float32 = self.unk_id, self.unk_score, self.float32
        rounded = array("f", (0.0,))  # a sum stored here reads back rounded to float32
        best = [0.0] * (length + 1)  # best path score ending at each char position
        origin = [-1] * (length + 1)  # start of that path's last piece (-1: none yet)
        last_id = [0] * (length + 1)  # id of that last piece
        frontier = 0  # the furthest end a piece (or unk) has reached
        for start in range(length):
            base = best[start]
            if float32 and not -SCORE_RESET <= base <= SCORE_RESET:
                _reset_scores(best, origin, start, frontier)
                base = 0.0
            has_single_char = False
            children, end = trie, start
            for char in text[start : start + longest]:
                node = children.get(char)
                if node is None:
                    break
                end += 1
                children, entry = node
                if entry is not None:
                    candidate = base + entry[1]
                    if float32:
                        rounded[0] = candidate
                        # past the float32 range, struct decides (it raises on some Python versions)
                        candidate = rounded[0] if -_FLOAT32_MAX <= rounded[0] <= _FLOAT32_MAX else _to_float32(candidate)
                    if origin[end] < 0 or candidate > best[end]:
                        best[end], origin[end], last_id[end] = candidate, start, entry[0]
                    if end == start + 1:
                        has_single_char = True
            if end > frontier:
                frontier = end
            if not has_single_char:
                end = start + 1
                if end > frontier:
                    frontier = end
                candidate = base + unk_score
                if float32:
                    candidate = _to_float32(candidate)
                if origin[end] < 0 or candidate > best[end]:
                    if unk_id is None:
                        raise TokenizationError(MISSING_UNK_ID)
                    best[end], origin[end], last_id[end] = candidate, start, unk_id
        return self._backtrack(origin, last_id)

    def _backtrack(self, origin: list[int], last_id: list[int]) -> list[tuple[int, int, int]]:
        """Follow `origin` back from the end into spans, fusing runs of unk-id spans."""
        unk_id = self.unk_id
        path: list[tuple[int, int, int]] = []
        end = len(origin) - 1
        while end > 0:
            start, token_id = origin[end], last_id[end]
            if token_id == unk_id and path and path[-1][2] == unk_id:
                path[-1] = (start, path[-1][1], unk_id)
            else:
                path.append((start, end, token_id))
            end = start
        path.reverse()
        return path

    def columns(self, text: str, byte_fallback: bool) -> Columns | None:
        """`best_path` as a tokenizer's columns: ids, token strings (the chars each token covers)
        and char spans, an unknown span looked up whole as `Unigram._tokens` does; None where an
        unknown span would need byte fallback (the model spells it)."""
        spans = self.best_path(text)
        ids = self._span_ids(text, spans, byte_fallback)
        if ids is None:
            return None
        return ids, [text[start:end] for start, end, _ in spans], [(start, end) for start, end, _ in spans]

    def ids(self, text: str, byte_fallback: bool) -> list[int] | None:
        """The ids of `columns` alone; None where `columns` is None."""
        return self._span_ids(text, self.best_path(text), byte_fallback)

    def _span_ids(self, text: str, spans: list[tuple[int, int, int]], byte_fallback: bool) -> list[int] | None:
        """The ids of the spans, an unknown span looked up whole (the unk id where it is not a
        matchable piece); None where such a span needs byte fallback."""
        ids = [span[2] for span in spans]
        unk_id = self.unk_id
        if unk_id is None or unk_id not in ids:
            return ids
        for index, (start, end, token_id) in enumerate(spans):
            if token_id == unk_id:
                found = self.token_to_ids.get(text[start:end])
                if found is None or found in self.reserved_ids:
                    if byte_fallback:
                        return None
                    found = unk_id
                ids[index] = found
        return ids


def _build_trie(token_to_ids: dict[str, int], vocab: list[tuple[str, float]],
                reserved_ids: frozenset[int]) -> dict[str, list]:
    """A char trie of every piece not reserved: each node is `[children, (id, score) or None]`."""
    root: dict[str, list] = {}
    for piece, token_id in token_to_ids.items():
        if token_id in reserved_ids:
            continue
        children, node = root, None
        for char in piece:
            node = children.get(char)
            if node is None:  # not setdefault: it would build a node for every char of every piece
                node = children[char] = [{}, None]
            children = node[0]
        if node is not None:
            node[1] = (token_id, vocab[token_id][1])
    return root


_FLOAT32 = struct.Struct("f")
_FLOAT32_MAX = 3.4028234663852886e38  # the largest finite float32


def _reset_scores(best: list[float], origin: list[int], start: int, frontier: int) -> None:
    """sentencepiece's score reset: the path scores from `start` to `frontier` (those reached)
    made relative to the one at `start`, in float32, so that long texts keep their precision."""
    offset = best[start]
    for i in range(start, frontier + 1):
        if i == start or origin[i] >= 0:
            best[i] = _to_float32(best[i] - offset)


def _to_float32(value: float) -> float:
    """`value` rounded to the nearest float32."""
    return _FLOAT32.unpack(_FLOAT32.pack(value))[0]


def _read_pieces(value: Any) -> list[tuple[str, float]]:
    """Validate the `[[piece, score], ...]` list; scores must be finite numbers."""
    if not isinstance(value, list):
        raise FormatError(f"expected a list of [piece, score], got {type(value).__name__}", field="vocab")
    pieces = []
    for index, entry in enumerate(value):
        field = f"vocab[{index}]"
        if not isinstance(entry, (list, tuple)) or len(entry) != 2 or not isinstance(entry[0], str):
            raise FormatError(f"expected [piece, score], got {entry!r}", field=field)
        score = entry[1]
        if not isinstance(score, (int, float)) or isinstance(score, bool):
            raise FormatError(f"score must be a number, got {score!r}", field=field)
        try:
            if type(score) is int and not -2**63 <= score < 2**64:  # serde_json reads it as its f64
                score = serde_json_f64(str(score))
            score = float(score)
        except (OverflowError, FormatError):
            score = math.inf
        if not math.isfinite(score):
            raise FormatError(f"score must be finite, got {entry[1]!r}", field=field)
        pieces.append((entry[0], score))
    return pieces
