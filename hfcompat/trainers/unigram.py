"""Unigram training as sentencepiece's trainer (0.2.3) does it: seed, EM, prune, finalize.

1. Seed: every character plus the substrings that occur at least twice and are followed
   by chars of more than one different first UTF-8 byte (the nodes of the text's UTF-8
   suffix tree that end on a char boundary), ranked by frequency * length; scores are
   log(count / total).
2. EM: the expected count of each piece over all segmentations (forward-backward), then
   the Bayesian update digamma(count) - digamma(total); pieces expected < 0.5 times go.
3. Prune: each piece's loss is how much the likelihood drops if its occurrences are
   respelled with its second-best segmentation; the least useful quarter goes. EM and
   pruning take turns until a pruning leaves the vocabulary within 10% of the target.
4. Finalize: the required characters, then the best-scoring pieces, up to vocab_size.

Every word keeps its candidate spans (start, end, seed id) from the seed vocabulary, so the
text is walked once; they sit in flat int32 arrays (unigram_segments.Segments, built one word at
a time; a compiled twin runs the E step and Viterbi over them). A word is cut wherever no span crosses (every
segmentation passes there) and equal segments are computed once; once pruning has shrunk
the vocabulary enough, the dead pieces' spans go, pieces are renumbered to the live ones,
and the words are cut again, so the work shrinks with the vocabulary (a long Japanese or
Chinese line ends up as short recurring segments). The words are dealt into CHUNKS fixed
chunks; after each cut, a segment found in several chunks is kept (with the counts added)
only in one of them, picked by a checksum of its text. Each chunk sums its own expected
counts and the chunks' sums are added in chunk order: the chunks may live in worker
processes (`workers`), and the result is the same for any number of them. Pruning's second-best segmentations (one
Viterbi per piece) are searched in the workers too, each always given the same pieces (by
seed id), whose sub-pieces it looks up once and keeps.
"""

from __future__ import annotations

import gc
import logging
import math
import multiprocessing
import signal
import traceback
import zlib
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import accumulate, compress, islice
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from operator import itemgetter, xor
from typing import Any

from ..errors import HfcompatError
from ..models.lattice import Starts, span_viterbi
from ..models.unigram import Unigram
from ..pre_tokenizers import script_of
from .unigram_segments import Segments

WHITESPACE = "\u2581"
UNK_CHAR = "\udfff"  # stands for characters left out by character_coverage; never in decoded text
SENTENCE_END = "\0"  # follows the last word of a text in the seed keys, as in sentencepiece
SENTENCEPIECE_UNK = "\u2047"  # what sentencepiece puts in place of the chars left out
CONTINUATION_BYTES = bytes(range(0x80, 0xC0))  # the UTF-8 bytes that do not begin a char
EXPECTED_FREQUENCY_THRESHOLD = 0.5
MIN_SCORE_PENALTY_DELTA = 0.0001
UNK_PENALTY = 10.0
COMPACT_BELOW = 0.6  # compact the chunks once the vocabulary fell below this share of its size at the last compaction
INHERITED = script_of("\u0301")  # combining marks take the script of the char before them
SEED_PASSES = 2  # each seed process finds its suffix-tree nodes in this many passes (less memory at once)
CHUNKS = 8  # fixed, so that sums over chunks do not depend on the number of workers
LOG = logging.getLogger(__name__)  # at INFO: the sizes sentencepiece's trainer logs (seed, after each EM step)

class VocabularyTooSmall(HfcompatError, ValueError):
    """The vocabulary cannot hold every required character plus the special tokens."""


def count_digamma(count: float) -> float:
    """digamma(count) for an expected count the M step keeps, else nan."""
    return digamma(count) if count >= EXPECTED_FREQUENCY_THRESHOLD else math.nan


def digamma(x: float) -> float:
    """The digamma function (asymptotic series after shifting x above 7)."""
    result = 0.0
    while x < 7.0:
        result -= 1.0 / x
        x += 1.0
    x -= 0.5
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    return (result + math.log(x) + xx2 / 24.0 - 7.0 / 960.0 * xx4 + 31.0 / 8064.0 * xx4 * xx2
            - 127.0 / 30720.0 * xx4 * xx4)


@dataclass
class PieceRules:
    """Which substrings may become pieces (sentencepiece's IsValidSentencePiece)."""

    max_piece_length: int = 16
    split_by_unicode_script: bool = True
    split_by_number: bool = True
    split_digits: bool = False
    _script_codes: dict[int, str | None] = field(default_factory=dict)

    def learn_chars(self, chars: Iterable[str]) -> None:
        """Give each char a one-char script code ("" where any script may follow: ▁, marks, digits if allowed)."""
        for char in chars:
            script = script_of(char)
            if char == WHITESPACE or script in (0, INHERITED) or (not self.split_by_number and char.isdecimal()):
                self._script_codes[ord(char)] = ""
            else:
                self._script_codes[ord(char)] = chr(0xE000 + script)
        for char in (" ", SENTENCE_END, UNK_CHAR):
            self._script_codes[ord(char)] = "\x01\x02"  # never valid

    def valid(self, piece: str) -> bool:
        """True if `piece` may be a piece: short enough, ▁ only first, one script."""
        if not piece or len(piece) > self.max_piece_length or WHITESPACE in piece[1:]:
            return False
        codes = piece.translate(self._script_codes)
        if "\x01" in codes:
            return False
        if self.split_digits and len(piece) > 1 and any(char.isdecimal() for char in piece):
            return False
        return not self.split_by_unicode_script or not codes or codes.count(codes[0]) == len(codes)


def most_common_first(items: Iterable[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """(key, value) pairs by value, highest first, then by key: two stable sorts on C keys, about
    twice as fast as one on a (-value, key) tuple."""
    ordered = sorted(items, key=itemgetter(0))
    ordered.sort(key=itemgetter(1), reverse=True)  # a reversed sort keeps equal values in order
    return ordered


def _checked_ends(sentence_ends: dict[str, int], counts: dict[str, int]) -> dict[str, int]:
    """The positive sentence_ends; a word cannot end more texts than it occurs in."""
    for word, last in sentence_ends.items():
        if last > counts.get(word, 0):
            raise ValueError(f"sentence_ends counts {word!r} {last} times, more than word_counts "
                             f"({counts.get(word, 0)})")
    return {word: last for word, last in sentence_ends.items() if last > 0}


def masked(counts: dict[str, int], kept: set[str]) -> dict[str, int]:
    """Words with chars outside `kept` spelled as UNK_CHAR (merging words that become equal)."""
    result: dict[str, int] = {}
    for word, count in counts.items():
        if not kept.issuperset(word):
            word = "".join(char if char in kept else UNK_CHAR for char in word)
        result[word] = result.get(word, 0) + count
    return result


def char_counts(word_counts: dict[str, int]) -> dict[str, int]:
    """How often each char occurs in the words."""
    counts: dict[str, int] = {}
    for word, count in word_counts.items():
        for char in word:
            counts[char] = counts.get(char, 0) + count
    return counts


def required_chars(counts: dict[str, int], coverage: float) -> list[tuple[str, int]]:
    """The most frequent chars (count, then char; not the space) that cover `coverage` of all
    chars, from their `counts`."""
    counts = {char: count for char, count in counts.items() if char != " "}
    total = sum(counts.values())
    chosen, covered = [], 0
    for char, count in most_common_first(counts.items()):
        if coverage < 1.0 and covered / total >= coverage:
            break
        covered += count
        chosen.append((char, count))
    return chosen


def frequent_substrings(word_counts: dict[str, int], rules: PieceRules, limit: int, processes: int = 1,
                        sentence_ends: dict[str, int] | None = None) -> list[tuple[str, int]]:
    """Up to `limit` (substring, frequency * length) of length >= 2, best first as sentencepiece
    ranks them: then longer in UTF-8, then by substring.

    The substrings are sentencepiece's seed candidates, the suffix-tree nodes of the text (see
    suffix_nodes); `sentence_ends` counts how often each word was the last of its text. With 2
    `processes` the first chars are split in two halves searched side by side: a node never
    holds suffixes of two first chars, so the nodes are the same.
    """
    if processes > 1:
        found = _suffix_nodes_in_two(word_counts, rules, sentence_ends)
    else:
        found = suffix_nodes_in_passes(word_counts, rules, None, sentence_ends)
    ranked = sorted(((piece, count * len(piece)) for piece, count in found.items()), key=itemgetter(0))
    ranked.sort(key=lambda item: len(item[0].encode("utf-8", "surrogatepass")), reverse=True)  # reversed: still stable
    ranked.sort(key=itemgetter(1), reverse=True)
    return ranked[:limit]


def suffix_nodes(word_counts: dict[str, int], rules: PieceRules, firsts: set[str] | None = None,
                 sentence_ends: dict[str, int] | None = None) -> dict[str, int]:
    """The valid pieces of length >= 2 at internal suffix-tree nodes and their frequencies
    (only the suffixes beginning with a char of `firsts`, if given).

    sentencepiece builds the suffix tree of the text's UTF-8 bytes and keeps the nodes that
    end on a char boundary, so a substring is a node when what follows it begins with two
    different bytes: followers that share their first byte do not count as different. In a
    text a word is followed by the next word's ▁; the last word of a text (`sentence_ends`
    times; none if not given) by the end of the sentence.

    Each word position gives the key of its next max_piece_length + 1 chars, each a 32-bit
    unit with the char's first UTF-8 byte on top, followed by the word's count (one integer,
    so sorting and common-prefix lengths run in C); sorted keys and their common-prefix
    lengths give the nodes bottom-up, as an enhanced suffix array does. A common prefix that
    ends inside a unit below its first byte is a level between two chars, where no node is
    reported. Equal windows sort side by side and share all their chars, a node too deep to
    be reported.
    """
    depth = rules.max_piece_length + 1
    width = 4 * depth
    ends = sentence_ends or {}
    count_units = max(1, (max(word_counts.values(), default=1).bit_length() + 31) // 32)
    from_bytes = int.from_bytes
    keys: list[int] = []
    for word, count in word_counts.items():
        offsets = range(0, 4 * len(word), 4)
        if firsts is not None:
            offsets = [offset for offset, char in zip(offsets, word) if char in firsts]
        last = ends.get(word, 0)
        for follower, times in ((WHITESPACE, count - last), (SENTENCE_END, last)):
            if times:
                text = word + follower * depth
                data = bytearray(text.encode("utf-32-be", "surrogatepass"))
                data[::4] = first_utf8_bytes(text)
                tail = times.to_bytes(4 * count_units, "big")
                keys += [from_bytes(data[offset : offset + width] + tail, "big") for offset in offsets]
    keys.sort()
    count_mask = (1 << 32 * count_units) - 1
    totals = running_totals(keys, count_mask)
    key_bytes = 4 * (depth + count_units)
    total_bits = 8 * key_bytes
    # The level of two keys' common prefix, by the bit length of their xor: 2 per char, + 1 if
    # it ends inside a char; the levels too deep to be reported are one level.
    deepest = 2 * rules.max_piece_length + 1
    level_of = [min(deepest, 2 * (size // 4) + (size % 4 > 0))
                for size in ((total_bits - bits) >> 3 for bits in range(total_bits + 1))]
    commons = array("i", map(level_of.__getitem__, map(int.bit_length, map(xor, keys, islice(keys, 1, None)))))
    commons.append(0)
    found: dict[str, int] = {}
    stack: list[tuple[int, int]] = [(0, 0)]  # (level of the common prefix, first key) of open intervals
    for index, common in enumerate(commons, 1):
        first = index - 1
        while stack[-1][0] > common:
            level, first = stack.pop()
            node_depth = level // 2
            if level % 2 == 0 and 2 <= node_depth <= rules.max_piece_length:
                units = bytearray(keys[first].to_bytes(key_bytes, "big")[: 4 * node_depth])
                units[::4] = bytes(node_depth)
                piece = units.decode("utf-32-be", "surrogatepass")
                if rules.valid(piece):
                    found[piece] = totals[index] - totals[first]
        if stack[-1][0] < common:
            stack.append((common, first))
    return found


def running_totals(keys: list[int], count_mask: int) -> Sequence[int]:
    """0, then the running sums of the keys' counts (their bits under `count_mask`): an int64
    array (8 bytes a sum instead of an int object and a pointer), or a list if a sum outgrows it."""
    try:
        return array("q", accumulate(map(count_mask.__and__, keys), initial=0))
    except OverflowError:
        return list(accumulate(map(count_mask.__and__, keys), initial=0))


def first_utf8_bytes(text: str) -> bytes:
    """The first UTF-8 byte of each char; the unk stand-in's is that of the char sentencepiece
    puts in place of left-out chars (U+2047)."""
    utf8 = text.replace(UNK_CHAR, SENTENCEPIECE_UNK).encode("utf-8", "surrogatepass")
    return utf8.translate(None, CONTINUATION_BYTES)


def shares_of_chars(word_counts: dict[str, int], shares: int, chars: set[str] | None = None) -> list[set[str]]:
    """The chars of the words (only those in `chars`, if given) in `shares` sets starting about as
    many positions each."""
    positions = Counter("".join(word_counts))
    found: list[set[str]] = [set() for _ in range(shares)]
    sizes = [0] * shares
    for char, count in most_common_first(positions.items()):
        if chars is None or char in chars:
            smallest = sizes.index(min(sizes))
            found[smallest].add(char)
            sizes[smallest] += count
    return found


def halves_of_chars(word_counts: dict[str, int]) -> tuple[set[str], set[str]]:
    """The chars of the words in two sets starting about as many positions each."""
    first, second = shares_of_chars(word_counts, 2)
    return first, second


def suffix_nodes_in_passes(word_counts: dict[str, int], rules: PieceRules, firsts: set[str] | None,
                           sentence_ends: dict[str, int] | None) -> dict[str, int]:
    """suffix_nodes (of the suffixes beginning with a char of `firsts`, or all) in SEED_PASSES
    passes, each over a share of those first chars: the same nodes, as a node never holds
    suffixes of two first chars, with a fraction of the keys in memory at once."""
    found: dict[str, int] = {}
    for share in shares_of_chars(word_counts, SEED_PASSES, firsts):
        found.update(suffix_nodes(word_counts, rules, share, sentence_ends))
    return found


def _suffix_nodes_in_two(word_counts: dict[str, int], rules: PieceRules,
                         sentence_ends: dict[str, int] | None) -> dict[str, int]:
    """suffix_nodes of the two halves_of_chars, the second in a child process."""
    mine, theirs = halves_of_chars(word_counts)
    context = multiprocessing.get_context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_send_suffix_nodes, args=(sender, word_counts, rules, theirs, sentence_ends),
                              daemon=True)
    process.start()
    sender.close()
    try:
        found = suffix_nodes_in_passes(word_counts, rules, mine, sentence_ends)
        found.update(receiver.recv())
    except EOFError:
        raise RuntimeError("the Unigram seed's second process ended without an answer") from None
    except BaseException:  # Ctrl-C or an error here: the child's half is not needed
        process.terminate()
        raise
    finally:
        receiver.close()
        process.join()
    return found


def _send_suffix_nodes(sender: Connection, word_counts: dict[str, int], rules: PieceRules, firsts: set[str],
                       sentence_ends: dict[str, int] | None) -> None:
    """The child of _suffix_nodes_in_two: send suffix_nodes of `firsts`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the trainer's process handles Ctrl-C and stops us
    sender.send(suffix_nodes_in_passes(word_counts, rules, firsts, sentence_ends))
    sender.close()


def to_log_probs(pieces: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """Counts as log(count / total)."""
    log_total = math.log(sum(count for _, count in pieces))
    return [(piece, math.log(count) - log_total) for piece, count in pieces]


@dataclass
class _State:
    """The training vocabulary: id 0 stands for unknown chars; dead pieces stay as holes until a
    compaction drops them and renumbers the rest."""

    pieces: list[str]
    scores: list[float]
    alive: list[bool]
    seed_ids: list[int]  # each piece's id in the seed vocabulary, which never changes
    seed_size: int
    chars: list[int] = field(init=False)  # ids of single chars (a dead char still spells unk)

    def __post_init__(self) -> None:
        self.chars = [index for index, piece in enumerate(self.pieces) if len(piece) == 1]

    @classmethod
    def of_seed(cls, seed: list[tuple[str, float]]) -> "_State":
        """Every seed piece alive, with its seed score."""
        return cls([piece for piece, _ in seed], [score for _, score in seed], [True] * len(seed),
                    list(range(len(seed))), len(seed))

    def live_ids(self) -> list[int]:
        """Ids of the pieces still in the vocabulary (not the unk stand-in)."""
        return list(compress(range(1, len(self.pieces)), self.alive[1:]))

    def live_scores(self) -> list[float]:
        """Per id: the score of a live piece, -inf for a dead one; at 0, what a char without a live
        piece costs: the lowest live score minus 10, as in the models."""
        scores = [score if alive else -math.inf for score, alive in zip(self.scores, self.alive)]
        scores[0] = min(compress(self.scores[1:], self.alive[1:]), default=0.0) - UNK_PENALTY
        return scores

    def effective_scores(self) -> list[float]:
        """live_scores, but a dead char spells unk (its score is unk's) instead of nothing."""
        scores = self.live_scores()
        for index in self.chars:
            if not self.alive[index]:
                scores[index] = scores[0]
        return scores

    def by_seed_id(self, values: list[float], default: float) -> list[float]:
        """`values` (one per piece) at the pieces' seed ids; `default` where compaction dropped a piece."""
        vector = [default] * self.seed_size
        for index, seed_id in enumerate(self.seed_ids):
            vector[seed_id] = values[index]
        return vector

    def compacted(self) -> tuple["_State", list[int]]:
        """The state without its dead pieces (dead chars stay: they spell unk) and old id -> new id (-1: gone)."""
        kept = [index for index, piece in enumerate(self.pieces) if index == 0 or self.alive[index] or len(piece) == 1]
        new_ids = [-1] * len(self.pieces)
        for new_id, index in enumerate(kept):
            new_ids[index] = new_id
        state = _State([self.pieces[index] for index in kept], [self.scores[index] for index in kept],
                       [self.alive[index] for index in kept], [self.seed_ids[index] for index in kept], self.seed_size)
        return state, new_ids


class UnigramTrainer:
    """Learns a Unigram model from word counts the way sentencepiece's trainer does."""

    def __init__(
        self,
        vocab_size: int = 8000,
        *,
        special_tokens: Iterable[str] = (),
        unk_token: str | None = "<unk>",
        shrinking_factor: float = 0.75,
        n_sub_iterations: int = 2,
        max_piece_length: int = 16,
        seed_size: int = 1_000_000,
        show_progress: bool = True,
        initial_alphabet: Iterable[str] = (),
        character_coverage: float = 1.0,
        byte_fallback: bool = False,
        split_by_unicode_script: bool = True,
        split_by_number: bool = True,
        split_digits: bool = False,
        workers: int = 1,
    ):
        self.vocab_size = vocab_size
        self.special_tokens = [str(token) for token in special_tokens]
        self.unk_token = unk_token
        self.shrinking_factor = shrinking_factor
        self.n_sub_iterations = n_sub_iterations
        self.seed_size = seed_size
        self.show_progress = show_progress
        self.initial_alphabet = list(initial_alphabet)
        self.character_coverage = character_coverage
        self.byte_fallback = byte_fallback
        self.workers = max(1, min(workers, CHUNKS))
        self.rules = PieceRules(max_piece_length, split_by_unicode_script, split_by_number, split_digits)

    def meta_pieces(self) -> list[str]:
        """The pieces placed before the learned ones: special tokens (unk first if not among them), bytes."""
        meta = list(self.special_tokens)
        if self.unk_token is not None and self.unk_token not in meta:
            meta.insert(0, self.unk_token)
        if self.byte_fallback:
            meta.extend(f"<0x{byte:02X}>" for byte in range(256))
        return meta

    def train(self, word_counts: dict[str, int], sentence_ends: dict[str, int] | None = None) -> Unigram:
        """Learn the vocabulary of `word_counts` (pre-tokenized words, e.g. "▁the": 12).

        `sentence_ends` says how often each word was the last of its text (sentence): the seed
        tells the end of a sentence from the next word's ▁, as sentencepiece's does. Without
        it every word is taken to be followed by another.
        """
        counts = {word: count for word, count in word_counts.items() if word and count > 0}
        ends = _checked_ends(sentence_ends or {}, counts)
        if not counts:
            return self._finalize(_State.of_seed([(UNK_CHAR, 0.0)]), [], self.meta_pieces())
        frequencies = char_counts(counts)
        chars = required_chars(frequencies, self.character_coverage)
        chars += [(char, 0) for char in self.initial_alphabet if char not in dict(chars)]
        meta = self.meta_pieces()
        if len(chars) + len(meta) > self.vocab_size:
            raise VocabularyTooSmall(
                f"vocab_size {self.vocab_size} cannot hold the {len(chars)} required characters "
                f"and {len(meta)} special pieces: raise vocab_size or lower character_coverage"
            )
        kept = {char for char, _ in chars}
        self.rules.learn_chars(kept)
        words = most_common_first(masked(counts, kept).items())
        # masking leaves the counts of the kept chars as they were
        seed = self._seed(words, masked(ends, kept), {char: count for char, count in frequencies.items()
                                                      if char in kept and char != UNK_CHAR})
        state = _State.of_seed(seed)
        LOG.info("seed: %d pieces", len(seed) - 1)  # not the unk stand-in
        total_count = sum(count for _, count in words)
        desired = int(self.vocab_size * 1.1)
        compacted_size = len(state.pieces)
        with _no_collection(), _Chunks(words, seed, self.workers) as chunks, _progress(self.show_progress, state, desired) as bar:
            while True:
                for _ in range(self.n_sub_iterations):
                    expected = self._expectation(state, chunks)
                    self._maximize(state, expected, chunks.map_sums(count_digamma))
                    LOG.info("EM step: %d pieces", sum(state.alive) - 1)
                    bar.update(1)
                self._prune(state, chunks, total_count)
                if len(state.live_ids()) <= desired:
                    break  # pruned last, as sentencepiece 0.2.3 does: no EM round after it
                if len(state.live_ids()) < COMPACT_BELOW * compacted_size:
                    state = chunks.compact(state)
                    compacted_size = len(state.pieces)
        self._drop_unreachable(state)
        return self._finalize(state, chars, meta)

    def _seed(self, words: list[tuple[str, int]], ends: dict[str, int], chars: dict[str, int]) -> list[tuple[str, float]]:
        """The seed vocabulary: the unk stand-in, the words' `chars` (with their counts), then
        frequent substrings, scored log(count / total)."""
        seed = most_common_first(chars.items())
        seed += frequent_substrings(dict(words), self.rules, self.seed_size, self.workers, ends)
        return [(UNK_CHAR, 1.0)] + to_log_probs(seed)

    def _expectation(self, state: _State, chunks: "_Chunks") -> list[float]:
        """Expected count of each piece over all segmentations of all words (E step)."""
        probs = list(map(math.exp, state.effective_scores()))  # exp(-inf) is 0.0: dead pieces
        return chunks.sum("expected", probs, self.rules.max_piece_length)

    def _maximize(self, state: _State, expected: list[float], digammas: list[float]) -> None:
        """Drop pieces expected less than 0.5 times; score the rest digamma(count) - digamma(total)
        (`digammas`: count_digamma of each expected count)."""
        previous = state.live_ids()
        live = [index for index in previous if expected[index] >= EXPECTED_FREQUENCY_THRESHOLD]
        if not live:
            return  # nothing reaches the threshold (a tiny corpus): keep the pieces as they are
        for index in previous:
            state.alive[index] = False
        log_total = digamma(sum(expected[index] for index in live))
        for index in live:
            state.alive[index] = True
            state.scores[index] = digammas[index] - log_total

    def _prune(self, state: _State, chunks: "_Chunks", total_count: int) -> None:
        """Keep the pieces whose removal would cost the likelihood most (shrinking_factor of them)."""
        scores = state.effective_scores()
        freq = chunks.sum("best_counts", scores)
        freq[0] = 0.0
        live = state.live_ids()
        used = [index for index in live if freq[index] != 0.0]
        kept, candidates = [], []
        # in seed ids, which compaction leaves alone: the sub-piece spans found stay valid
        losses = chunks.removal_losses(state.by_seed_id(state.live_scores(), -math.inf), state.by_seed_id(freq, 0.0),
                                       total_count, [state.seed_ids[index] for index in used])
        for index, loss in zip(used, losses):
            if loss is None:
                continue  # its own best segmentation splits it: it is never used whole
            if loss == math.inf:
                kept.append(index)
                continue
            candidates.append((index, loss))
        size = max(int(self.vocab_size * 1.1), int(self.shrinking_factor * len(live)))
        kept += [index for index, _ in most_common_first(candidates)[: max(0, size - len(kept))]]
        survivors = set(kept)
        for index in live:
            state.alive[index] = index in survivors

    def _drop_unreachable(self, state: _State) -> None:
        """Drop pieces the model would never produce: their own best segmentation splits them."""
        live = state.live_ids()
        for index, alternatives in zip(live, SubPieces(state.pieces).second_best(live, state.live_scores())):
            if alternatives is None:
                state.alive[index] = False

    def _finalize(self, state: _State, chars: list[tuple[str, int]], meta: list[str]) -> Unigram:
        """The required chars, then the best live pieces, up to vocab_size; meta pieces first."""
        live = {state.pieces[index]: state.scores[index] for index in state.live_ids()}
        min_score = min(live.values(), default=0.0)
        final: dict[str, float] = {}
        penalty = 0.0
        for char, _ in chars:
            if char in live:
                final[char] = live[char]
            else:
                final[char] = min_score + penalty
                penalty += MIN_SCORE_PENALTY_DELTA
        room = self.vocab_size - len(meta)
        for piece, score in most_common_first(live.items()):
            if len(final) >= room:
                break
            final.setdefault(piece, score)
        learned = [item for item in most_common_first(final.items()) if item[0] not in meta]
        vocab = [(piece, 0.0) for piece in meta] + learned
        unk_id = meta.index(self.unk_token) if self.unk_token is not None else None
        return Unigram(vocab, unk_id=unk_id, byte_fallback=self.byte_fallback)


def sub_piece_spans(piece: str, ids: dict[str, int]) -> Starts:
    """The (end, id) of every piece of `ids` inside `piece` but itself, grouped by start; each
    group ends with the unk stand-in's one-char span, which spells the char if its piece is dead."""
    length = len(piece)
    starts: Starts = []
    for start in range(length):
        group = []
        for end in range(start + 1, length + 1 if start else length):
            token_id = ids.get(piece[start:end])
            if token_id is not None:
                group.append((end, token_id))
        group.append((start + 1, 0))
        starts.append(group)
    return starts


def alternative_segmentation(starts: Starts, scores: list[float], own_score: float) -> list[int] | None:
    """The ids of a piece's second-best segmentation from its sub_piece_spans under `scores`
    (-inf for dead pieces); None if that scores higher than the piece itself, which its own best
    segmentation then splits."""
    second = [token_id for _, _, token_id in span_viterbi(starts, scores)]
    # The best path is the piece itself unless the best other one scores strictly higher
    # (span_viterbi keeps the first best, and the whole piece is met first); the sum runs
    # left to right as span_viterbi's does, so the comparison is exact.
    score = 0.0
    for token_id in second:
        score += scores[token_id]
    return None if score > own_score else second


class SubPieces:
    """The sub_piece_spans of pieces, each found once and kept (in flat arrays, a Segments):
    training only removes pieces, so the pieces alive at the first look-up are all that can ever
    match, and the span of one that dies later stays harmless (its score is -inf)."""

    def __init__(self, pieces: list[str]):
        self.pieces = pieces
        self.ids: dict[str, int] | None = None  # the pieces alive at the first look-up
        self.spans = Segments()
        self.slots: dict[int, int] = {}  # piece id -> its segment in `spans`

    def second_best(self, ids: Sequence[int], scores: list[float]) -> list[list[int] | None]:
        """alternative_segmentation of each piece `ids` names under `scores` (-inf: dead): [] for a
        single char (it has no other spelling)."""
        if self.ids is None:
            self.ids = {piece: index for index, piece in enumerate(self.pieces) if scores[index] > -math.inf}
        found: list[list[int] | None] = []
        for index in ids:
            piece = self.pieces[index]
            if len(piece) == 1:
                found.append([])
                continue
            slot = self.slots.get(index)
            if slot is None:
                slot = self.slots[index] = self.spans.add_spans(sub_piece_spans(piece, self.ids))
            found.append(alternative_segmentation(self.spans.starts(slot), scores, scores[index]))
        return found


def removal_losses(sub_pieces: SubPieces, scores: list[float], freq: list[float], total_count: int,
                   ids: Sequence[int]) -> list[float | None]:
    """How much the likelihood drops when each piece `ids` names goes and its uses take its
    second-best segmentation instead (weighed by how often it is used, `freq`): inf when it has
    none (it stays), None when its own best segmentation splits it (it is never used whole)."""
    total = sum(freq)
    log_total = math.log(total)
    losses: list[float | None] = []
    for index, alternatives in zip(ids, sub_pieces.second_best(ids, scores)):
        if not alternatives:
            losses.append(None if alternatives is None else math.inf)
            continue
        log_prob = math.log(freq[index]) - log_total
        log_total_alt = math.log(total + freq[index] * (len(alternatives) - 1))
        log_prob_alt = sum(math.log(freq[alt] + freq[index]) - log_total_alt for alt in alternatives)
        losses.append(freq[index] / total_count * (log_prob - log_prob_alt))
    return losses


class _Chunk:
    """Some of the words as independent segments (unigram_segments.Segments): their texts,
    counts and candidate spans (end, seed id) by start, in flat arrays.

    A word is cut wherever no candidate span crosses: every segmentation passes there, so
    the parts' forward-backward and Viterbi are independent and equal parts of different
    words (in this chunk) are computed once with their counts added. Pruning removes long
    pieces, so the parts shrink and repeat more and more ("▁" + a sentence of Japanese ends
    up as a few dozen short words).
    """

    def __init__(self, segments: Segments):
        self.parts = segments

    @classmethod
    def of(cls, words: Sequence[tuple[str, int]], model: Unigram) -> "_Chunk":
        """The chunk of `words` with their spans under the seed `model`, cut into segments one word at a time."""
        segments = Segments()
        for word, count in words:
            segments.add_word(word, count, model.starts(word))
        return cls(segments.done())

    def expected(self, probs: list[float], window: int) -> list[float]:
        """Expected count of each seed id over every segmentation of these words."""
        return self.parts.expected(probs, window)

    def best_counts(self, scores: list[float]) -> list[float]:
        """How often each seed id is in the best segmentations of these words."""
        return self.parts.best_counts(scores)

    def segments(self) -> tuple[list[str], list[int]]:
        """The segments' texts and counts, for finding equal segments in other chunks."""
        return self.parts.texts, self.parts.weights

    def reweigh(self, weights: list[int]) -> None:
        """Give the segments these counts, dropping those at 0 (another chunk counts them)."""
        self.parts = self.parts.reweighed(weights)

    def compact(self, new_ids: list[float]) -> None:
        """Renumber the spans' pieces (new_ids[old id], -1 drops the span), then cut anew."""
        self.parts = self.parts.renumbered(list(map(int, new_ids)))


def shared_counts(segments: Sequence[tuple[list[str], list[int]]]) -> list[list[int]]:
    """Per chunk, the new count of each of its segments: equal segments of several chunks are
    counted once, in one of those chunks, the others get 0. The chunk is picked by a checksum of
    the text, not by chunk order, so that the work stays spread evenly over the chunks."""
    counts = [list(weights) for _, weights in segments]
    first: dict[str, tuple[int, int]] = {}  # text -> (chunk, index) of its first copy
    copies: dict[str, list[tuple[int, int]]] = {}  # text -> every copy, for texts in several chunks
    for chunk_index, (texts, _) in enumerate(segments):
        for index, text in enumerate(texts):
            place = first.setdefault(text, (chunk_index, index))
            if place[0] != chunk_index:  # a chunk's own segments are all different
                copies.setdefault(text, [place]).append((chunk_index, index))
    for text, places in copies.items():
        total = 0
        for chunk_index, index in places:
            total += counts[chunk_index][index]
            counts[chunk_index][index] = 0
        chunk_index, index = places[zlib.crc32(text.encode("utf-8", "surrogatepass")) % len(places)]
        counts[chunk_index][index] = total
    return counts


class _Chunks:
    """The CHUNKS chunks of the words, here or dealt round-robin to worker processes.

    Every request gives each chunk one vector over the seed ids (probabilities, scores or
    which pieces to keep) and may get one such vector back per chunk. Workers read and
    write these vectors in shared memory, and add the chunks' answers up there, each a share of
    the positions; the pipes carry only the request's name.
    """

    def __init__(self, words: list[tuple[str, int]], seed: list[tuple[str, float]], workers: int):
        parts = [words[index::CHUNKS] for index in range(CHUNKS)]
        self.size = len(seed)
        self.local: list[_Chunk] = []
        self.connections: list[Connection] = []
        self.processes: list[Any] = []
        self.local_sums: list[float] = []  # the last sum, without workers
        self.sums_size = 0  # the length of the last sum, with workers
        if workers <= 1:
            model = Unigram(seed, unk_id=0)
            self.local = [_Chunk.of(part, model) for part in parts]
            self.sub_pieces = SubPieces([piece for piece, _ in seed])
            self.share()
            return
        context = multiprocessing.get_context()
        self.given = context.RawArray("d", self.size)
        self.answers = context.RawArray("d", CHUNKS * self.size)
        self.sums = context.RawArray("d", self.size)
        for worker in range(workers):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, daemon=True, args=(
                theirs, parts[worker::workers], (worker, workers), seed, (self.given, self.answers, self.sums)))
            process.start()
            theirs.close()
            self.connections.append(mine)
            self.processes.append(process)
        self.share()

    def __enter__(self) -> "_Chunks":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ask(self, method: str, vector: list[float], *args: Any) -> list[Sequence[float]] | None:
        """Every chunk's answer to `method(vector, *args)`, in chunk order (None if it answers nothing);
        from workers, views of the shared answers, valid until the next request."""
        if self.local:
            answers = [getattr(chunk, method)(vector, *args) for chunk in self.local]
            return None if answers[0] is None else answers
        size = len(vector)
        _doubles(self.given)[:size] = array("d", vector)
        for connection in self.connections:
            connection.send((method, size, args))
        answered = True
        for connection in self.connections:
            answered = self._result(connection)
        if not answered:
            return None
        shared = _doubles(self.answers)
        return [shared[index * self.size : index * self.size + size] for index in range(CHUNKS)]

    def call(self, method: str, args: Sequence[tuple[Any, ...]]) -> list[Any]:
        """Every chunk's result of `method(*args[chunk])`, in chunk order (sent through the pipes)."""
        if self.local:
            return [getattr(chunk, method)(*chunk_args) for chunk, chunk_args in zip(self.local, args)]
        for worker, connection in enumerate(self.connections):
            mine = range(worker, CHUNKS, len(self.connections))
            connection.send((method, None, {index: args[index] for index in mine}))
        results: dict[int, Any] = {}
        for connection in self.connections:
            results.update(self._result(connection))
        return [results[index] for index in range(CHUNKS)]

    @staticmethod
    def _result(connection: Connection) -> Any:
        """A worker's answer to the last request; raises if the request failed there."""
        status, value = connection.recv()
        if status != "ok":
            raise RuntimeError(f"a Unigram training worker failed:\n{value}")
        return value

    def removal_losses(self, scores: list[float], freq: list[float], total_count: int,
                       ids: list[int]) -> list[float | None]:
        """removal_losses(scores, freq, total_count, ids) over the seed pieces, each piece always
        sent to the same worker (see _ids_of_worker), which keeps the sub-piece spans it found."""
        if self.local:
            return removal_losses(self.sub_pieces, scores, freq, total_count, ids)
        workers = len(self.connections)
        request = ForkingPickler.dumps(("removal_losses", None, (scores, freq, total_count, ids)))
        for connection in self.connections:
            connection.send_bytes(request)  # pickled once for all
        found: dict[int, float | None] = {}
        for worker, connection in enumerate(self.connections):
            found.update(zip(_ids_of_worker(ids, worker, workers), self._result(connection)))
        return [found[index] for index in ids]

    def share(self) -> None:
        """Count equal segments of different chunks once, in one of the chunks that have them."""
        counts = shared_counts(self.call("segments", [()] * CHUNKS))
        self.call("reweigh", [(mine,) for mine in counts])

    def sum(self, method: str, vector: list[float], *args: Any) -> list[float]:
        """The chunks' answers added position by position, in chunk order."""
        answers = self.ask(method, vector, *args)
        if self.local:
            self.local_sums = chunk_sums(answers, 0, len(vector))
            return self.local_sums
        self.sums_size = len(vector)
        for connection in self.connections:
            connection.send(("sum", self.sums_size, ()))
        for connection in self.connections:
            self._result(connection)
        return _doubles(self.sums)[: self.sums_size].tolist()

    def map_sums(self, function: Callable[[float], float]) -> list[float]:
        """`function` of each of the last sums (in the workers, each at its share of the positions)."""
        if self.local:
            return list(map(function, self.local_sums))
        for connection in self.connections:
            connection.send(("map_sums", self.sums_size, (function,)))
        for connection in self.connections:
            self._result(connection)
        return _doubles(self.given)[: self.sums_size].tolist()

    def compact(self, state: _State) -> _State:
        """The state without dead pieces, the chunks' spans renumbered to match (see _State.compacted)."""
        compacted, new_ids = state.compacted()
        self.ask("compact", [float(new_id) for new_id in new_ids])
        self.share()
        return compacted

    def close(self) -> None:
        """Stop the workers (at once if training was interrupted)."""
        for connection in self.connections:
            try:
                connection.send(None)
            except OSError:
                pass
            connection.close()
        for process in self.processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()
        self.connections, self.processes = [], []


@contextmanager
def _no_collection() -> Iterator[None]:
    """Pause the cycle collector: training builds millions of span tuples and lists (no cycles),
    and each full collection would walk all of them again (a third of the time of a round)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def chunk_sums(rows: Sequence[Sequence[float]], low: int, high: int) -> list[float]:
    """The rows (one per chunk) added up, in chunk order, at positions low to high."""
    return list(map(sum, zip(*(row[low:high] for row in rows))))


def _ids_of_worker(ids: list[int], worker: int, workers: int) -> list[int]:
    """The ids whose remainder by `workers` is `worker`: a piece goes to the same worker every time."""
    return [index for index in ids if index % workers == worker]


def _doubles(shared: Any) -> memoryview:
    """A shared array of doubles as a memoryview of doubles."""
    return memoryview(shared).cast("B").cast("d")


def _serve(connection: Connection, parts: list[list[tuple[str, int]]], place: tuple[int, int],
           seed: list[tuple[str, float]], shared: tuple[Any, Any, Any]) -> None:
    """Worker `place` = (number, of how many): build its chunks (every how-many-th from its
    number on), then answer requests (method name, args) until None.

    `shared` = (given, answers, sums): the request's vector is read from `given`; chunk i's
    answer goes to slot i of `answers`; at the worker's share of the positions, a "sum"
    request adds the answers up into `sums`, and "map_sums" writes a function of those sums
    into `given`.
    """
    given, answers, sums = shared
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the trainer's process handles Ctrl-C and stops us
    gc.disable()  # see _no_collection; the worker ends with the training
    worker, workers = place
    chunk_ids = range(worker, CHUNKS, workers)
    model = Unigram(seed, unk_id=0)
    chunks = [_Chunk.of(part, model) for part in parts]
    del model
    sub_pieces = SubPieces([piece for piece, _ in seed])
    stride = len(seed)
    while True:
        try:
            request = connection.recv()
        except EOFError:
            return
        if request is None:
            return
        method, size, args = request
        try:
            if method == "removal_losses":  # not per chunk: the worker's share of the pieces
                *common, ids = args
                connection.send(("ok", removal_losses(sub_pieces, *common, _ids_of_worker(ids, worker, workers))))
                continue
            if method in ("sum", "map_sums"):  # not per chunk: the worker's share of the positions
                low, high = size * worker // workers, size * (worker + 1) // workers
                if method == "sum":
                    rows = [_doubles(answers)[index * stride : index * stride + size] for index in range(CHUNKS)]
                    _doubles(sums)[low:high] = array("d", chunk_sums(rows, low, high))
                else:  # into `given`, whose request every worker has read
                    _doubles(given)[low:high] = array("d", map(args[0], _doubles(sums)[low:high]))
                connection.send(("ok", True))
                continue
            if size is None:  # args per chunk id, results through the pipe
                connection.send(("ok", {index: getattr(chunk, method)(*args[index])
                                        for index, chunk in zip(chunk_ids, chunks)}))
                continue
            vector = _doubles(given)[:size].tolist()
            answered = False
            for index, chunk in zip(chunk_ids, chunks):
                answer = getattr(chunk, method)(vector, *args)
                if answer is not None:
                    _doubles(answers)[index * stride : index * stride + size] = array("d", answer)
                    answered = True
            connection.send(("ok", answered))
        except Exception:  # report it to the trainer's process, which raises
            connection.send(("error", traceback.format_exc()))


class _NoProgress:
    """Stands in for a tqdm bar when progress is off."""

    def __enter__(self) -> "_NoProgress":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, steps: int) -> None:
        """Nothing to show."""


def _progress(show: bool, state: _State, desired: int):
    """A tqdm bar over the expected number of EM rounds, or a silent stand-in."""
    if not show:
        return _NoProgress()
    from tqdm import tqdm

    rounds = max(1, math.ceil(math.log(desired / max(2, len(state.pieces))) / math.log(0.75)))
    return tqdm(total=rounds * 2, desc="Unigram EM", unit="step")


def documented_seed(word_counts: dict[str, int], size: int = 300) -> list[tuple[str, float]]:
    """The seed vocabulary of the documented walk-through (DESIGN.md example 3, Unigram).

    Every char, then the substrings of length >= 2 by frequency (ties in order of first
    appearance, words in `word_counts` order) up to `size` entries; scores log(count / total).
    """
    chars: dict[str, int] = {}
    substrings: dict[str, int] = {}
    for word, count in word_counts.items():
        for start in range(len(word)):
            chars[word[start]] = chars.get(word[start], 0) + count
            for end in range(start + 2, len(word) + 1):
                substrings[word[start:end]] = substrings.get(word[start:end], 0) + count
    ranked = sorted(substrings.items(), key=lambda item: item[1], reverse=True)
    pieces = list(chars.items()) + ranked[: size - len(chars)]
    total = sum(count for _, count in pieces)
    return [(piece, math.log(count / total)) for piece, count in pieces]
