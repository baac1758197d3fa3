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
from collections.abc import Callable, Sequence
from typing import Any

from .. import _backend
from ..errors import FormatError, TokenizationError
from ..pipeline.cache import Cache
from ..pipeline.fields import USIZE_MAX, as_bool, as_uint
from ..pipeline.json_numbers import serde_json_f64
from .base import Columns, Model, ModelKernel, Token, reference_kernel, token_columns
from .lattice import Lattice

try:
    from . import _unigram
except ImportError:  # not built (no compiler at install time): the pure-Python reference runs
    pass
else:
    _backend.register("unigram", _unigram)

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
        self._python_trie: dict[str, list] | None = self._eager_trie()
        # (id, name) of the `<0xHH>` piece of each byte value, None where the vocabulary lacks it
        self._byte_pieces = [self._piece_id(f"<0x{byte:02X}>") for byte in range(256)]
        self._max_piece_chars = max(map(len, self.token_to_ids), default=0)
        self._cache = Cache(CACHE_CAPACITY)  # pre-token -> tokens
        # The compiled Viterbi (`_unigram.Viterbi`), built on first use; False when the ids do not fit it.
        self._viterbi: Any = None

    def without_matching(self, reserved_ids: frozenset[int]) -> None:
        """Never match these ids in text (they stay in the vocabulary, for ids and decoding)."""
        self.reserved_ids = frozenset(reserved_ids)
        self._python_trie = self._eager_trie()
        self._viterbi = None
        self._cache.clear()

    def sum_in_float32(self, unk_score: float) -> None:
        """Add path scores in float32 with this unknown-char score, as sentencepiece's Viterbi does."""
        self._round = _to_float32
        self.unk_score = _to_float32(unk_score)
        self._viterbi = None
        self._cache.clear()

    def _piece_id(self, piece: str) -> tuple[int, str] | None:
        """(id, piece) if `piece` is in the vocabulary, else None."""
        token_id = self.token_to_ids.get(piece)
        return None if token_id is None else (token_id, piece)

    def _eager_trie(self) -> dict[str, list] | None:
        """The Python char trie, built now on the pure-Python backend (as part of loading); None
        on the compiled one, whose Viterbi has its own trie: `_trie` builds it if a Python path
        ever needs it (most of a 30k vocabulary's load time)."""
        return self._build_trie() if _backend.unigram is None else None

    @property
    def _trie(self) -> dict[str, list]:
        """The char trie the Python paths walk (built on first use on the compiled backend)."""
        if self._python_trie is None:
            self._python_trie = self._build_trie()
        return self._python_trie

    def _build_trie(self) -> dict[str, list]:
        """A char trie of every piece: each node is `[children, (id, score) or None]`."""
        root: dict[str, list] = {}
        for piece, token_id in self.token_to_ids.items():
            if token_id in self.reserved_ids:
                continue
            children, node = root, None
            for char in piece:
                node = children.get(char)
                if node is None:  # not setdefault: it would build a node for every char of every piece
                    node = children[char] = [{}, None]
                children = node[0]
            if node is not None:
                node[1] = (token_id, self.vocab[token_id][1])
        return root

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
        """The compiled Viterbi's columns and ids where it applies, the reference's `tokenize`
        for the rest."""
        if not self._compiled_viterbi():
            return reference_kernel(self.tokenize, sample=self.sample)
        return ModelKernel(self._complete_columns, fast_columns=self.columns, ids=self.ids, sample=self.sample)

    def _complete_columns(self, sequence: str) -> Columns:
        """`columns`, or the reference's where the compiled Viterbi leaves the word to it."""
        found = self.columns(sequence)
        return found if found is not None else token_columns(sequence, self.tokenize)

    def columns(self, sequence: str) -> tuple[list[int], list[str], list[tuple[int, int]]] | None:
        """`tokenize` as a tokenizer's columns (ids, strings, char spans), all in C; None where
        only `tokenize` applies (the pure backend, byte fallback)."""
        viterbi = self._compiled_viterbi() if _backend.unigram is not None else None
        return viterbi.columns(sequence, self.byte_fallback) if viterbi else None

    def ids(self, sequence: str) -> list[int] | None:
        """The ids of `columns` alone, without building token strings or spans (what
        sentencepiece's `encode` returns); None where `columns` is None."""
        viterbi = self._compiled_viterbi() if _backend.unigram is not None else None
        return viterbi.ids(sequence, self.byte_fallback) if viterbi else None

    def encode(self, sequence: str) -> list[str]:
        """The best segmentation as strings, adjacent unknowns fused (HF's `Unigram::encode`)."""
        return [sequence[start:end] for start, end, _ in self._segment(sequence)]

    def _segment(self, text: str) -> list[tuple[int, int, int]]:
        """`_best_path`, run by the compiled Viterbi on the compiled backend (the reference
        runs where that one declines: an error to raise, a float32 overflow)."""
        if _backend.unigram is not None:
            viterbi = self._viterbi or self._compiled_viterbi()
            spans = viterbi.best_path(text) if viterbi else None
            if spans is not None:
                return spans
        return self._best_path(text)

    def build_compiled(self) -> None:
        """Build the compiled Viterbi now, not on the first text (loading a file does); nothing
        on the pure-Python backend."""
        self._compiled_viterbi()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the compiled Viterbi (a C object): a copy builds its own."""
        return {**self.__dict__, "_viterbi": None}

    def _compiled_viterbi(self) -> Any:
        """This model's compiled Viterbi on the compiled backend (built on first use); None on
        the pure-Python backend or when the model's ids do not fit its 31 bits."""
        core = _backend.unigram
        if core is None or self._viterbi is False:
            return None
        if self._viterbi is None:
            try:
                self._viterbi = core.Viterbi(self.token_to_ids, self.vocab, self.reserved_ids, self.unk_score,
                                             self.unk_id, self._round is not None)
            except OverflowError:
                self._viterbi = False
                return None
        return self._viterbi

    def _best_path(self, text: str) -> list[tuple[int, int, int]]:
        """Viterbi: the best (char start, char end, id) spans, adjacent unk spans fused.

        Every char start proposes each piece that begins there (a trie walk, as in
        `starts`, inlined for speed), and an unknown char where no single-char piece does.
        A proposal replaces the best path ending at the same place only when strictly
        better, so ties keep the path whose last piece starts leftmost (is longest).
        """
        length = len(text)
        trie = self._trie
        longest = self._max_piece_chars
        unk_id, unk_score, rounding = self.unk_id, self.unk_score, self._round
        best = [0.0] * (length + 1)  # best path score ending at each char position
        origin = [-1] * (length + 1)  # start of that path's last piece (-1: none yet)
        last_id = [0] * (length + 1)  # id of that last piece
        frontier = 0  # the furthest end a piece (or unk) has reached
        for start in range(length):
            base = best[start]
            if rounding is not None and not -SCORE_RESET <= base <= SCORE_RESET:
                _reset_scores(best, origin, start, frontier)
                base = 0.0
            has_single_char = False
            children, end = trie, start
            for char in text[start : start + longest]:
                node = children.get(char)
                if node is None:
                    break
                end += 1
                frontier = max(frontier, end)
                children, entry = node
                if entry is not None:
                    candidate = base + entry[1]
                    if rounding is not None:
                        candidate = rounding(candidate)
                    if origin[end] < 0 or candidate > best[end]:
                        best[end], origin[end], last_id[end] = candidate, start, entry[0]
                    if end == start + 1:
                        has_single_char = True
            if not has_single_char:
                end = start + 1
                frontier = max(frontier, end)
                candidate = base + unk_score
                if rounding is not None:
                    candidate = rounding(candidate)
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
        where no single-char piece starts (the candidates Viterbi and training weigh); on the
        compiled backend its Viterbi's C trie finds them (no Python trie is built)."""
        viterbi = self._compiled_viterbi() if _backend.unigram is not None else None
        if viterbi:
            return viterbi.starts(text)
        longest, unk_id, trie = self._max_piece_chars, self.unk_id, self._trie
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

    def spans(self, text: str) -> list[tuple[int, int, int, float]]:
        """Every (start, end, id, score) piece match in chars, start-major, plus unk where no single-char piece starts."""
        found = []
        for start, group in enumerate(self.starts(text)):
            single_char = self._trie.get(text[start])
            for end, token_id in group:
                unknown = token_id == self.unk_id and end == start + 1 and (single_char is None or single_char[1] is None)
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


_FLOAT32 = struct.Struct("f")


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
