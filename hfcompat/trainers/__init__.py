"""Trainers, one beside each model (bpe.py, wordpiece.py, wordlevel.py, unigram.py), the word
counting they share (counting.py, reading sources.py), and the counts themselves, which add up
and go to and from files (word_counts.py).

`Tokenizer.train` / `train_from_iterator` count words with the tokenizer's own pipeline
(normalizer + pre-tokenizer, like `tokenizers`) and hand the counts to a trainer;
`hfcompat.train` (tools/train.py) first builds the pipeline a model name stands for.
Ctrl-C stops training with KeyboardInterrupt and leaves the tokenizer as it was.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..models.bpe import BPE
from ..models.wordlevel import WordLevel
from ..models.wordpiece import WordPiece
from .bpe import BpeTrainer
from .counting import Pipeline, Sample, ShortTexts, count_corpus, count_words, count_words_and_ends, words_of
from .sources import iter_texts, source_size
from .unigram import UnigramTrainer
from .word_counts import WordCounts, describe_pipeline
from .wordlevel import WordLevelTrainer
from .wordpiece import WordPieceTrainer

__all__ = ["BpeTrainer", "ShortTexts", "UnigramTrainer", "WordCounts", "WordLevelTrainer", "WordPieceTrainer",
           "Sample", "count_corpus", "count_words", "count_words_and_ends", "default_trainer", "describe_pipeline",
           "extend", "iter_texts", "source_size", "train_from_counts", "train_tokenizer", "words_of"]


# --------------------------------------------------------------------------- training


def default_trainer(model: Any) -> Any:
    """The trainer `tokenizers` would pick for a model, with its default options."""
    if isinstance(model, BPE):
        return BpeTrainer()
    if isinstance(model, WordPiece):
        return WordPieceTrainer(scoring="hf")
    if isinstance(model, WordLevel):
        return WordLevelTrainer()
    return UnigramTrainer()


def train_tokenizer(tokenizer: Pipeline, texts: Iterable[str], trainer: Any = None, *,
                    total: int | None = None, workers: int = 1) -> Pipeline:
    """Count words with the tokenizer's pipeline, train its model, add the special tokens."""
    trainer = trainer if trainer is not None else default_trainer(tokenizer.model)
    show = getattr(trainer, "show_progress", True)
    counts, ends = count_words_and_ends(tokenizer, texts, show_progress=show, total=total, workers=workers)
    return train_from_counts(tokenizer, counts, ends, trainer)


def train_from_counts(tokenizer: Pipeline, counts: dict[str, int], ends: dict[str, int], trainer: Any) -> Pipeline:
    """Train the tokenizer's model on word counts (and sentence ends), add the special tokens."""
    tokenizer.model = _train_model(trainer, counts, ends, tokenizer.model)
    tokenizer.add_special_tokens(list(getattr(trainer, "special_tokens", ())))
    return tokenizer


def _train_model(trainer: Any, counts: dict[str, int], ends: dict[str, int], current: Any) -> Any:
    """Run a trainer: ours take the current model to carry its options over, Unigram's the
    words' sentence ends (`ends`)."""
    if isinstance(trainer, (BpeTrainer, WordPieceTrainer, WordLevelTrainer)):
        kind = {BpeTrainer: "BPE", WordPieceTrainer: "WordPiece", WordLevelTrainer: "WordLevel"}
        same_kind = type(current).__name__ == kind[type(trainer)]
        return trainer.train(counts, model=current if same_kind else None)
    return trainer.train(counts, ends)


def extend(tokenizer: Pipeline, files_or_iterator: Any, vocab_size: int, *, workers: int = 1,
           **options: Any) -> Pipeline:
    """Continue training a BPE tokenizer on more text (`BpeTrainer.extend`), in place.

    Words are counted with the tokenizer's own pipeline; `vocab_size` is the new total. Every
    existing token keeps its id and every existing merge its rank.
    """
    if not isinstance(tokenizer.model, BPE):
        raise TypeError(f"only BPE tokenizers can be extended, not {type(tokenizer.model).__name__}")
    model = tokenizer.model
    options.setdefault("continuing_subword_prefix", model.continuing_subword_prefix)
    options.setdefault("end_of_word_suffix", model.end_of_word_suffix)
    trainer = BpeTrainer(vocab_size, **options)
    counts = count_words(tokenizer, iter_texts(files_or_iterator), show_progress=trainer.show_progress,
                         total=source_size(files_or_iterator), workers=workers)
    tokenizer.model = trainer.extend(model, counts)
    tokenizer.add_special_tokens(list(trainer.special_tokens))
    return tokenizer
