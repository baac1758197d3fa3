"""WordLevel training: the most frequent words, exactly as `tokenizers`' WordLevelTrainer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from ..models.wordlevel import WordLevel
from ..pipeline.added_vocabulary import AddedToken
from .bpe import special_contents


@dataclass
class WordLevelTrainer:
    """Special tokens first, then words by descending count (ties by code point order)."""

    vocab_size: int = 30000
    min_frequency: int = 0
    special_tokens: Sequence[str | AddedToken] = ()
    show_progress: bool = True

    def train(self, word_counts: Mapping[str, int], model: WordLevel | None = None) -> WordLevel:
        """The WordLevel model of these counts; `model`'s unk token carries over."""
        ranked = sorted(word_counts.items(), key=lambda item: (-item[1], item[0]))
        frequent = [word for word, count in ranked if count >= self.min_frequency]
        tokens = (special_contents(self.special_tokens) + frequent)[: self.vocab_size]
        # A special token that is also a word keeps its later id, as in HF's map.
        vocab = {token: index for index, token in enumerate(tokens)}
        unk_token = model.unk_token if model is not None else "<unk>"
        return WordLevel(vocab, unk_token=unk_token)
