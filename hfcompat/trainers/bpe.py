"""BPE training: learn merges from word counts, as `tokenizers`' BpeTrainer or as documented.

Words are counted once; then the trainer keeps, for every adjacent pair of symbols, its count
(weighted by word frequency) and the words it occurs in, and each merge rewrites only those
words and updates only the pairs it touches. Two rules pick the next merge among equal counts:

- "hf" (default): `tokenizers`' rule, the smallest (left id, right id), ids numbering special
  tokens, then the alphabet by code point, then decorated chars and merged tokens as they
  appear. It also keeps HF's queue semantics (a queue entry merges only the words it recorded),
  so merges and vocabulary are identical to `tokenizers` for the same word counts.
- "first": the documented rule, the pair met first when scanning the words in order of their
  first appearance, each left to right (DESIGN.md examples 3 and 4).

The "hf" loop is `load` then `merge_hf` (pair counting, queue, word rewriting); `_bpe_trainer.pyx`
is their compiled twin, over C arrays with identical results. The trainer picks the compiled
pair when it is built and the ids fit in int32, and goes back to the pair here when a count does
not fit in int64.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Iterable, Mapping, Sequence

from .. import _backend
from ..models.bpe import BPE
from ..pipeline.added_vocabulary import AddedToken
from .progress import progress_bar

_backend.load("bpe_trainer")  # the compiled twin, when it was built

TIE_BREAKS = ("hf", "first")
NO_LIMIT = 1 << 62
MAX_COMPILED_ID = (1 << 31) - 1  # the compiled loop keeps ids in int32
Pair = tuple[int, int]  # (left id, right id)
# The "hf" loop's two steps: `load` (words, counts, lengths, max length) -> a corpus, or None
# when the compiled one cannot hold it; `merge_hf` (corpus, min frequency, vocab size,
# vocabulary, new_token, step) -> the merges.
HfLoop = tuple[Callable[..., Any], Callable[..., list[Pair]]]


def special_contents(tokens: Iterable[str | AddedToken]) -> list[str]:
    """The text of each special token (strings or AddedToken)."""
    return [token.content if isinstance(token, AddedToken) else token for token in tokens]


@dataclass
class Vocabulary:
    """Tokens by id while training: ids are handed out in order and never change."""

    tokens: list[str] = field(default_factory=list)  # by id ("" where a loaded vocabulary has a gap)
    ids: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, vocab: Mapping[str, int]) -> "Vocabulary":
        """A vocabulary that keeps every id of `vocab`; new tokens get ids after the largest."""
        tokens = [""] * (max(vocab.values(), default=-1) + 1)
        for token, token_id in vocab.items():
            tokens[token_id] = token
        return cls(tokens, dict(vocab))

    def add(self, token: str) -> int:
        """The id of `token`, giving it the next id when it is new."""
        token_id = self.ids.get(token)
        if token_id is None:
            token_id = self.ids[token] = len(self.tokens)
            self.tokens.append(token)
        return token_id

    def __len__(self) -> int:
        return len(self.ids)


def merge_in_word(symbols: list[int], lengths: list[int] | None, left: int, right: int,
                  new: int, max_length: int) -> list[tuple[Pair, int]]:
    """Merge every (left, right) in one word, left to right; return the pair count changes.

    `lengths` (chars per symbol) is needed only with a max token length: a new pair whose token
    would reach it is not counted (HF's rule; the merge itself still happens).
    """
    changes: list[tuple[Pair, int]] = []
    i = 0
    while i < len(symbols) - 1:
        if symbols[i] == left and symbols[i + 1] == right:
            new_length = lengths[i] + lengths[i + 1] if lengths is not None else 0
            if i > 0:
                before = symbols[i - 1]
                changes.append(((before, left), -1))
                if lengths is None or lengths[i - 1] + new_length < max_length:
                    changes.append(((before, new), 1))
            symbols[i:i + 2] = (new,)
            if lengths is not None:
                lengths[i:i + 2] = (new_length,)
            if i < len(symbols) - 1:
                after = symbols[i + 1]
                changes.append(((right, after), -1))
                if lengths is None or lengths[i + 1] + new_length < max_length:
                    changes.append(((new, after), 1))
        i += 1
    return changes


@dataclass
class Corpus:
    """The distinct words as symbol ids, their counts, and every pair's count and words."""

    words: list[list[int]]
    counts: list[int]
    lengths: list[list[int]] | None
    max_length: int = NO_LIMIT  # the "hf" loop's (`load`): no new pair reaches it
    pair_counts: dict[Pair, int] = field(default_factory=dict)
    where: dict[Pair, set[int]] = field(default_factory=dict)

    def count_pairs(self) -> None:
        """Count every adjacent pair once, weighted by word count, and note where it occurs."""
        pair_counts, where = self.pair_counts, self.where
        for index, (symbols, count) in enumerate(zip(self.words, self.counts)):
            for pair in zip(symbols, symbols[1:]):
                pair_counts[pair] = pair_counts.get(pair, 0) + count
                found = where.get(pair)
                if found is None:
                    where[pair] = {index}
                else:
                    found.add(index)

    def merge(self, pair: Pair, new: int, positions: Iterable[int], max_length: int,
              changed: set[Pair] | None = None) -> dict[Pair, set[int]]:
        """Merge `pair` into `new` in the given words; return the words where pairs appeared.

        Every pair whose count changed is added to `changed` when it is given.
        """
        if self.lengths is None and changed is None:
            return self._merge_fast(pair, new, positions)
        left, right = pair
        pair_counts, words, counts, lengths = self.pair_counts, self.words, self.counts, self.lengths
        appeared: dict[Pair, set[int]] = {}
        for index in positions:
            word_lengths = lengths[index] if lengths is not None else None
            changes = merge_in_word(words[index], word_lengths, left, right, new, max_length)
            count = counts[index]
            for other, delta in changes:
                pair_counts[other] = pair_counts.get(other, 0) + delta * count
                if delta > 0:
                    appeared.setdefault(other, set()).add(index)
            if changed is not None:
                changed.update(other for other, _ in changes)
        return appeared

    def _merge_fast(self, pair: Pair, new: int, positions: Iterable[int]) -> dict[Pair, set[int]]:
        """`merge` without a max length, inlined: `merge_in_word`'s steps, found by list.index.

        The profile of byte-level training spends most of its time here (long CJK words).
        """
        left, right = pair
        pair_counts, words, counts = self.pair_counts, self.words, self.counts
        get = pair_counts.get
        appeared: defaultdict[Pair, set[int]] = defaultdict(set)
        for index in positions:
            symbols, count = words[index], counts[index]
            find = symbols.index
            i = 0
            try:
                while True:
                    i = find(left, i)
                    if i + 1 < len(symbols) and symbols[i + 1] == right:
                        if i > 0:
                            before = symbols[i - 1]
                            pair_counts[before, left] -= count
                            key = (before, new)
                            pair_counts[key] = get(key, 0) + count
                            appeared[key].add(index)
                        symbols[i] = new
                        del symbols[i + 1]
                        if i + 1 < len(symbols):
                            after = symbols[i + 1]
                            pair_counts[right, after] -= count
                            key = (new, after)
                            pair_counts[key] = get(key, 0) + count
                            appeared[key].add(index)
                    i += 1
            except ValueError:
                pass
        return appeared

    def first_occurrence(self, pair: Pair) -> tuple[int, int]:
        """(word index, symbol index) of the first occurrence of `pair` in corpus order."""
        left, right = pair
        for index in sorted(self.where.get(pair, ())):
            symbols = self.words[index]
            for i in range(len(symbols) - 1):
                if symbols[i] == left and symbols[i + 1] == right:
                    return index, i
        return NO_LIMIT, NO_LIMIT


def load(words: list[list[int]], counts: list[int], lengths: list[list[int]] | None, max_length: int) -> Corpus:
    """The words (lists of symbol ids), their counts and char lengths as a corpus for `merge_hf`
    (the compiled twin copies them into C arrays, and may decline)."""
    return Corpus(words, counts, lengths, max_length)


def merge_hf(corpus: Corpus, min_frequency: int, vocab_size: int, vocabulary: Vocabulary,
             new_token: Callable[[int, int], int], step: Callable[[], Any]) -> list[Pair]:
    """HF's loop on a loaded corpus (rewritten as it goes): the merges as (left id, right id).

    Every pair is counted and queued as (count, pair, words); the top entry merges its pair in
    the words it recorded unless it is stale (then it goes back with its current count), and the
    pairs that appeared are queued. `new_token(left, right)` adds a merge's token to
    `vocabulary` and returns its id; `step()` advances the progress bar.
    """
    corpus.count_pairs()
    pair_counts = corpus.pair_counts
    queue: list[tuple[int, Pair, int, set[int]]] = []
    serial = 0
    for pair, positions in corpus.where.items():
        count = pair_counts[pair]
        if count > 0:
            queue.append((-count, pair, serial, positions))
            serial += 1
    heapq.heapify(queue)
    corpus.where = {}
    merges: list[Pair] = []
    while len(vocabulary) < vocab_size and queue:
        negative, pair, _, positions = heapq.heappop(queue)
        count = pair_counts[pair]
        if -negative != count:
            heapq.heappush(queue, (-count, pair, serial, positions))
            serial += 1
            continue
        if count < 1 or min_frequency > count:
            break
        merges.append(pair)
        appeared = corpus.merge(pair, new_token(*pair), positions, corpus.max_length)
        for changed, where in appeared.items():
            changed_count = pair_counts[changed]
            if changed_count > 0:
                heapq.heappush(queue, (-changed_count, changed, serial, where))
                serial += 1
        step()
    return merges


@dataclass
class BpeTrainer:
    """Learn a BPE model from word counts (see the module docstring for the two tie rules).

    `end_of_word_symbol` is the classic form of the original paper: a separate symbol after each
    word (merges like ("est", "</w>")), for studying the algorithm; HF's `end_of_word_suffix`
    glues the suffix to the last char instead, which is what the BPE model encodes with.
    """

    vocab_size: int = 30000
    min_frequency: int = 0
    special_tokens: Sequence[str | AddedToken] = ()
    limit_alphabet: int | None = None
    initial_alphabet: Iterable[str] = ()
    continuing_subword_prefix: str | None = None
    end_of_word_suffix: str | None = None
    max_token_length: int | None = None
    show_progress: bool = True
    tie_break: str = "hf"
    end_of_word_symbol: str | None = None

    def __post_init__(self) -> None:
        """Check the options that have a fixed set of values."""
        if self.tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {self.tie_break!r}")
        self.initial_alphabet = sorted({text[0] for text in self.initial_alphabet if text})

    # ----- the model --------------------------------------------------------------------

    def train(self, word_counts: Mapping[str, int], model: BPE | None = None) -> BPE:
        """Learn from word counts; the options of `model` (unk, byte fallback...) carry over."""
        vocab, merges = self.learn(word_counts)
        options = _model_options(model) if model is not None else {}
        return BPE(vocab, merges, continuing_subword_prefix=self.continuing_subword_prefix,
                   end_of_word_suffix=self.end_of_word_suffix, **options)

    def learn(self, word_counts: Mapping[str, int]) -> tuple[dict[str, int], list[tuple[str, str]]]:
        """The vocabulary (token -> id) and the merges in rank order."""
        vocabulary = Vocabulary()
        for token in special_contents(self.special_tokens):
            vocabulary.add(token)
        for char in self._alphabet(word_counts):
            vocabulary.add(char)
        corpus = self._split_words(word_counts, vocabulary)
        return self._learn_merges(corpus, vocabulary)

    def extend(self, model: BPE, word_counts: Mapping[str, int]) -> BPE:
        """Continue training `model` on new word counts, up to `vocab_size` tokens in all.

        Every existing token keeps its id and every existing merge its rank: new chars, new
        special tokens and new merges get the following ids and ranks. The new words are first
        segmented by the existing merges, then merged further as in `learn`.
        """
        vocabulary = Vocabulary.of(model.vocab)
        for token in special_contents(self.special_tokens):
            vocabulary.add(token)
        for char in self._alphabet(word_counts):
            vocabulary.add(char)
        self._split_words(word_counts, vocabulary)  # adds the decorated chars
        old_merges = model.merges
        segmenter = BPE(vocabulary.ids, old_merges, continuing_subword_prefix=self.continuing_subword_prefix,
                        end_of_word_suffix=self.end_of_word_suffix)
        corpus = self._segmented_words(word_counts, vocabulary, segmenter)
        vocab, merges = self._learn_merges(corpus, vocabulary)
        return BPE(vocab, old_merges + merges, continuing_subword_prefix=self.continuing_subword_prefix,
                   end_of_word_suffix=self.end_of_word_suffix, **_model_options(model))

    def _segmented_words(self, word_counts: Mapping[str, int], vocabulary: Vocabulary,
                         segmenter: BPE) -> Corpus:
        """Each word (chars outside the alphabet dropped) as the token ids `segmenter` gives it."""
        ids = vocabulary.ids
        words, lengths = [], []
        for word in word_counts:
            kept = "".join(char for char in word if char in ids)
            tokens = segmenter.tokenize(kept) if kept else []
            words.append([token[0] for token in tokens])
            data = kept.encode()
            lengths.append([len(data[start:end].decode("utf-8", "ignore")) for _, _, (start, end) in tokens])
        return Corpus(words, list(word_counts.values()), lengths if self.max_token_length is not None else None)

    def _learn_merges(self, corpus: Corpus, vocabulary: Vocabulary) -> tuple[dict[str, int], list[tuple[str, str]]]:
        """Count the pairs and run the merge loop of the tie rule."""
        if self.tie_break == "hf":
            merges = self._merge_hf(corpus, vocabulary)
        else:
            corpus.count_pairs()
            merges = self._merge_first(corpus, vocabulary)
        tokens = vocabulary.tokens
        return dict(vocabulary.ids), [(tokens[a], tokens[b]) for a, b in merges]

    # ----- setup ------------------------------------------------------------------------

    def _alphabet(self, word_counts: Mapping[str, int]) -> list[str]:
        """The chars kept: the initial alphabet and the most frequent chars, by code point."""
        frequency: dict[str, int] = {}
        by_count: dict[int, list[str]] = {}
        for word, count in word_counts.items():
            by_count.setdefault(count, []).append(word)
        for count, words in by_count.items():  # chars counted in C, one join per word count
            for char, seen in Counter("".join(words)).items():
                frequency[char] = frequency.get(char, 0) + seen * count
        for char in self.initial_alphabet:
            frequency[char] = NO_LIMIT
        kept = list(frequency)
        if self.limit_alphabet is not None and len(kept) > self.limit_alphabet:
            # HF drops the rarest; it leaves the order among equal counts unspecified.
            kept.sort(key=lambda char: (frequency[char], char))
            kept = kept[len(kept) - self.limit_alphabet:]
        return sorted(kept)

    def _split_words(self, word_counts: Mapping[str, int], vocabulary: Vocabulary) -> Corpus:
        """Each word as the ids of its decorated chars; chars outside the alphabet are dropped."""
        prefix, suffix = self.continuing_subword_prefix, self.end_of_word_suffix
        symbol = self.end_of_word_symbol
        alphabet = set(vocabulary.ids)
        words: list[list[int]] = []
        track_lengths = self.max_token_length is not None
        lengths: list[list[int]] | None = [] if track_lengths else None
        if not (prefix or suffix or symbol or track_lengths):
            return Corpus(_plain_symbols(word_counts, vocabulary.ids), list(word_counts.values()), None)
        for word in word_counts:
            last = len(word) - 1
            symbols = []
            for position, char in enumerate(word):
                if char not in alphabet:
                    continue
                piece = char
                if prefix and position > 0:
                    piece = prefix + piece
                if suffix and position == last:
                    piece += suffix
                symbols.append(vocabulary.add(piece))
            if symbol is not None:
                symbols.append(vocabulary.add(symbol))
            words.append(symbols)
            if lengths is not None:
                lengths.append([1] * len(symbols))
        return Corpus(words, list(word_counts.values()), lengths)

    def _new_token(self, vocabulary: Vocabulary, left: int, right: int) -> int:
        """The id of the token a merge of `left` and `right` makes, added to the vocabulary (the
        right part loses its prefix)."""
        tokens = vocabulary.tokens
        right_text = tokens[right]
        prefix = self.continuing_subword_prefix
        if prefix and right_text.startswith(prefix):
            right_text = right_text[len(prefix):]
        return vocabulary.add(tokens[left] + right_text)

    # ----- the merge loops --------------------------------------------------------------

    def _merge_hf(self, corpus: Corpus, vocabulary: Vocabulary) -> list[Pair]:
        """HF's loop (`load`, then `merge_hf`) on the words of `corpus` (rewritten as it goes)."""
        load_words, merge = self._hf_loop(vocabulary)
        max_length = self.max_token_length if self.max_token_length is not None else NO_LIMIT
        words, lengths = corpus.words, corpus.lengths
        corpus.words, corpus.lengths = [], None  # the compiled loop copies them: the lists can go
        loaded = load_words(words, corpus.counts, lengths, max_length)
        if loaded is None:  # a count or an id the compiled loop cannot hold
            loaded, merge = load(words, corpus.counts, lengths, max_length), merge_hf
        del words, lengths
        with progress_bar(self.show_progress, self.vocab_size, "Compute merges") as bar:
            return merge(loaded, self.min_frequency, self.vocab_size, vocabulary, partial(self._new_token, vocabulary),
                         bar.update)

    def _hf_loop(self, vocabulary: Vocabulary) -> HfLoop:
        """`load` and `merge_hf`: the compiled ones when they are built and every id this
        training can hand out fits them, else the ones here."""
        core = _backend.bpe_trainer
        if core is None or len(vocabulary.tokens) + max(self.vocab_size, 0) > MAX_COMPILED_ID:
            return load, merge_hf
        return core.load, core.merge_hf

    def _merge_first(self, corpus: Corpus, vocabulary: Vocabulary) -> list[Pair]:
        """The documented loop: top count, ties to the first pair met in corpus order."""
        max_length = self.max_token_length if self.max_token_length is not None else NO_LIMIT
        pair_counts, where = corpus.pair_counts, corpus.where
        queue = [(-count, pair) for pair, count in pair_counts.items() if count > 0]
        heapq.heapify(queue)
        merges: list[Pair] = []
        with progress_bar(self.show_progress, self.vocab_size, "Compute merges") as bar:
            while len(vocabulary) < self.vocab_size:
                tied = _pop_top(queue, pair_counts)
                if not tied or self.min_frequency > pair_counts[tied[0]]:
                    break
                pair = min(tied, key=corpus.first_occurrence)
                for other in tied:
                    if other != pair:
                        heapq.heappush(queue, (-pair_counts[other], other))
                new = self._new_token(vocabulary, *pair)
                merges.append(pair)
                touched: set[Pair] = set()
                appeared = corpus.merge(pair, new, sorted(where.pop(pair, ())), max_length, touched)
                pair_counts[pair] = 0
                for changed, positions in appeared.items():
                    where.setdefault(changed, set()).update(positions)
                for changed in touched:
                    if pair_counts.get(changed, 0) > 0:
                        heapq.heappush(queue, (-pair_counts[changed], changed))
                bar.update(1)
        return merges


def _model_options(model: BPE) -> dict:
    """The options of a BPE model that training does not decide (they carry over)."""
    return dict(dropout=model.dropout, unk_token=model.unk_token, fuse_unk=model.fuse_unk,
                byte_fallback=model.byte_fallback, ignore_merges=model.ignore_merges)


def _plain_symbols(word_counts: Mapping[str, int], ids: dict[str, int]) -> list[list[int]]:
    """The words as char ids when nothing decorates them (a fast path of `_split_words`)."""
    get = ids.get
    words = []
    for word in word_counts:
        symbols = list(map(get, word))
        if None in symbols:
            symbols = [symbol for symbol in symbols if symbol is not None]
        words.append(symbols)
    return words


def _pop_top(queue: list[tuple[int, Pair]], pair_counts: dict[Pair, int]) -> list[Pair]:
    """Pop every distinct pair whose current count is the top count (stale entries dropped)."""
    tied: list[Pair] = []
    top = None
    while queue:
        negative, pair = queue[0]
        count = pair_counts.get(pair, 0)
        if -negative != count or count < 1 or pair in tied:
            heapq.heappop(queue)
            continue
        if top is not None and count != top:
            break
        top = count
        tied.append(pair)
        heapq.heappop(queue)
    return tied

