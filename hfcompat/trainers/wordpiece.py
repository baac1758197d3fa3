"""WordPiece training: the documented likelihood score, or `tokenizers`' WordPieceTrainer.

"score" (default) merges the pair with the highest freq(ab) / (freq(a) * freq(b)), where a
token's freq counts its occurrences in the current segmentation; ties go to the pair met first
in corpus order (DESIGN.md example 3). The alphabet is each word's first char and the
prefixed later chars, sorted, after the special tokens.

"hf" is what `tokenizers` does: BPE training by count with the prefix on non-first chars, then
its vocabulary read as WordPiece pieces.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Sequence

from ..models.wordpiece import WordPiece
from ..pipeline.added_vocabulary import AddedToken
from .bpe import NO_LIMIT, BpeTrainer, Corpus, Pair, Vocabulary, special_contents
from .progress import progress_bar

SCORINGS = ("score", "hf")


@dataclass
class WordPieceTrainer:
    """Learn WordPiece pieces from word counts (see the module docstring)."""

    vocab_size: int = 30000
    min_frequency: int = 0
    special_tokens: Sequence[str | AddedToken] = ()
    limit_alphabet: int | None = None
    initial_alphabet: Iterable[str] = ()
    continuing_subword_prefix: str = "##"
    end_of_word_suffix: str | None = None
    show_progress: bool = True
    scoring: str = "score"

    def __post_init__(self) -> None:
        """Check the scoring name."""
        if self.scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {SCORINGS}, got {self.scoring!r}")

    def train(self, word_counts: Mapping[str, int], model: WordPiece | None = None) -> WordPiece:
        """The WordPiece model of these counts; `model`'s unk token and word limit carry over."""
        vocab = self.learn(word_counts)
        options = {}
        if model is not None:
            options = dict(unk_token=model.unk_token, max_input_chars_per_word=model.max_input_chars_per_word)
        return WordPiece(vocab, continuing_subword_prefix=self.continuing_subword_prefix, **options)

    def learn(self, word_counts: Mapping[str, int]) -> dict[str, int]:
        """The vocabulary, token -> id."""
        if self.scoring == "hf":
            bpe = BpeTrainer(self.vocab_size, self.min_frequency, self.special_tokens, self.limit_alphabet,
                             self.initial_alphabet, self.continuing_subword_prefix, self.end_of_word_suffix,
                             show_progress=self.show_progress)
            vocab, _ = bpe.learn(word_counts)
            return vocab
        return self._learn_by_score(word_counts)

    def _learn_by_score(self, word_counts: Mapping[str, int]) -> dict[str, int]:
        """The documented loop, keeping pair and token counts up to date merge by merge."""
        prefix = self.continuing_subword_prefix
        vocabulary = Vocabulary()
        for token in special_contents(self.special_tokens):
            vocabulary.add(token)
        pieces = [[char if i == 0 else prefix + char for i, char in enumerate(word)] for word in word_counts]
        for piece in sorted({piece for word in pieces for piece in word}):
            vocabulary.add(piece)
        corpus = Corpus([[vocabulary.ids[p] for p in word] for word in pieces], list(word_counts.values()), None)
        corpus.count_pairs()
        scores = ScoreQueue(corpus, _token_counts(corpus), self.min_frequency)
        with progress_bar(self.show_progress, self.vocab_size, "Compute merges") as bar:
            while len(vocabulary) < self.vocab_size:
                pair = scores.pop_best()
                if pair is None:
                    break
                left, right = pair
                right_text = vocabulary.tokens[right]
                if right_text.startswith(prefix):
                    right_text = right_text[len(prefix):]
                scores.merge(pair, vocabulary.add(vocabulary.tokens[left] + right_text))
                bar.update(1)
        return dict(vocabulary.ids)


class ScoreQueue:
    """Pairs by score freq(ab) / (freq(a) freq(b)), kept current as merges change the counts.

    A merge of (a, b) into n changes only pairs that hold a, b or n (their counts or their
    token counts), so only those get a fresh queue entry; an entry whose count or product no
    longer holds is stale and dropped when popped.
    """

    def __init__(self, corpus: Corpus, token_counts: dict[int, int], min_frequency: int):
        self.corpus = corpus
        self.token_counts = token_counts
        self.min_frequency = min_frequency
        self.pairs_with: dict[int, set[Pair]] = {}
        self.queue: list[tuple[float, Pair, int, int]] = []
        for pair in corpus.pair_counts:
            self._index(pair)
            self._push(pair)

    def _index(self, pair: Pair) -> None:
        """Note that both tokens of `pair` are in it."""
        for token in pair:
            self.pairs_with.setdefault(token, set()).add(pair)

    def _push(self, pair: Pair) -> None:
        """Queue `pair` with its current score, if it can be merged."""
        count = self.corpus.pair_counts.get(pair, 0)
        if count > 0 and count >= self.min_frequency:
            product = self.token_counts[pair[0]] * self.token_counts[pair[1]]
            heapq.heappush(self.queue, (-count / product, pair, count, product))

    def _is_current(self, pair: Pair, count: int, product: int) -> bool:
        """True when an entry still holds the pair's count and token counts."""
        return (self.corpus.pair_counts.get(pair, 0) == count
                and self.token_counts[pair[0]] * self.token_counts[pair[1]] == product)

    def pop_best(self) -> Pair | None:
        """The pair of highest score (exactly), first met in corpus order on ties."""
        queue: list[tuple[float, Pair, int, int]] = self.queue
        tied: list[tuple[float, Pair, int, int]] = []
        while queue and (not tied or queue[0][0] == tied[0][0]):
            entry = heapq.heappop(queue)
            if self._is_current(*entry[1:]) and all(entry[1] != other[1] for other in tied):
                tied.append(entry)
        if not tied:
            return None
        # Equal floats may hide unequal fractions: keep the exact maximum.
        top = max(Fraction(count, product) for _, _, count, product in tied)
        best = min((entry[1] for entry in tied if Fraction(entry[2], entry[3]) == top),
                   key=self.corpus.first_occurrence)
        for entry in tied:
            if entry[1] != best:
                heapq.heappush(queue, entry)
        return best

    def merge(self, pair: Pair, new: int) -> None:
        """Merge `pair` into `new` everywhere; update the counts and re-queue what changed."""
        corpus, token_counts = self.corpus, self.token_counts
        left, right = pair
        positions = sorted(corpus.where.pop(pair, ()))
        before = [len(corpus.words[index]) for index in positions]
        appeared = corpus.merge(pair, new, positions, NO_LIMIT)
        corpus.pair_counts[pair] = 0
        for index, length in zip(positions, before):
            merged = (length - len(corpus.words[index])) * corpus.counts[index]
            token_counts[left] -= merged
            token_counts[right] -= merged
            token_counts[new] = token_counts.get(new, 0) + merged
        for changed, where in appeared.items():
            corpus.where.setdefault(changed, set()).update(where)
            self._index(changed)
        for token in {left, right, new}:
            holding = self.pairs_with.get(token, set())
            holding.difference_update([p for p in holding if corpus.pair_counts.get(p, 0) <= 0])
            for other in holding:
                self._push(other)


def _token_counts(corpus: Corpus) -> dict[int, int]:
    """How often each token occurs in the current segmentation, weighted by word count."""
    counts: dict[int, int] = {}
    for symbols, count in zip(corpus.words, corpus.counts):
        for symbol in symbols:
            counts[symbol] = counts.get(symbol, 0) + count
    return counts

