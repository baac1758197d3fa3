"""WordPiece training: the documented likelihood score, or `tokenizers`' WordPieceTrainer.

"score" (default) merges the pair with the highest freq(ab) / (freq(a) * freq(b)), where a
token's freq counts its occurrences in the current segmentation; ties go to the pair met first
in corpus order (DESIGN.md example 3). The alphabet is each word's first char and the
prefixed later chars, sorted, after the special tokens.

"hf" is what `tokenizers` does: BPE training by count with the prefix on non-first chars, then
its vocabulary read as WordPiece pieces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from ..added_vocabulary import AddedToken
from ..models.wordpiece import WordPiece
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
        token_counts = _token_counts(corpus)
        with progress_bar(self.show_progress, self.vocab_size, "Compute merges") as bar:
            while len(vocabulary) < self.vocab_size:
                pair = self._best_pair(corpus, token_counts)
                if pair is None:
                    break
                left, right = pair
                right_text = vocabulary.tokens[right]
                if right_text.startswith(prefix):
                    right_text = right_text[len(prefix):]
                new = vocabulary.add(vocabulary.tokens[left] + right_text)
                positions = sorted(corpus.where.pop(pair, ()))
                before = {index: len(corpus.words[index]) for index in positions}
                appeared = corpus.merge(pair, new, positions, NO_LIMIT)
                corpus.pair_counts[pair] = 0
                for index in positions:
                    merged = (before[index] - len(corpus.words[index])) * corpus.counts[index]
                    token_counts[left] -= merged
                    token_counts[right] -= merged
                    token_counts[new] = token_counts.get(new, 0) + merged
                for changed, where in appeared.items():
                    corpus.where.setdefault(changed, set()).update(where)
                bar.update(1)
        return dict(vocabulary.ids)

    def _best_pair(self, corpus: Corpus, token_counts: dict[int, int]) -> Pair | None:
        """The pair of highest score (exact rational comparison), first met on ties."""
        best: list[Pair] = []
        best_count, best_product = 0, 1  # the best score as a fraction count / product
        for pair, count in corpus.pair_counts.items():
            if count <= 0 or count < self.min_frequency:
                continue
            left, right = pair
            product = token_counts[left] * token_counts[right]
            order = count * best_product - best_count * product
            if order > 0:
                best, best_count, best_product = [pair], count, product
            elif order == 0:
                best.append(pair)
        return min(best, key=corpus.first_occurrence) if best else None


def _token_counts(corpus: Corpus) -> dict[int, int]:
    """How often each token occurs in the current segmentation, weighted by word count."""
    counts: dict[int, int] = {}
    for symbols, count in zip(corpus.words, corpus.counts):
        for symbol in symbols:
            counts[symbol] = counts.get(symbol, 0) + count
    return counts

