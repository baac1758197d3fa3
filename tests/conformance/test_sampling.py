"""Tokenizer.sample against sentencepiece's encode(enable_sampling=True) on the real .model files:
exact where the draw is not random (best path, no or every merge skipped), the same distribution
(mean token count) where it is, and every sample a segmentation of the same text."""

from __future__ import annotations

import statistics
from functools import lru_cache

import pytest

import hfcompat
from tests.conftest import shared_file

spm = pytest.importorskip("sentencepiece")

TEXTS = ["unbelievably tokenization", "Hello  world, naïve café!", "吾輩は猫である。名前はまだ無い。"]
DRAWS = 600


@lru_cache(maxsize=None)
def _pair(name: str) -> tuple[hfcompat.Tokenizer, object]:
    """hfcompat and sentencepiece on one real .model file."""
    path = shared_file({"albert": "refs/albert/spiece.model", "llama2": "refs/llama2/tokenizer.model"}[name])
    return hfcompat.load(path), spm.SentencePieceProcessor(model_file=str(path))


@pytest.mark.parametrize("text", TEXTS)
def test_unigram_best_of_one_is_encode(text: str) -> None:
    tokenizer, processor = _pair("albert")
    assert tokenizer.sample(text, 0.1, 1, add_special_tokens=False).ids == processor.encode(text)
    assert tokenizer.sample(text, 0.1, 1).ids == tokenizer.encode(text).ids


@pytest.mark.parametrize("text", TEXTS)
def test_bpe_dropout_none_and_all(text: str) -> None:
    tokenizer, processor = _pair("llama2")
    assert tokenizer.sample(text, 0.0, add_special_tokens=False).ids == processor.encode(text)
    every_merge_skipped = processor.encode(text, enable_sampling=True, alpha=1.0)
    assert tokenizer.sample(text, 1.0, add_special_tokens=False).ids == every_merge_skipped


@pytest.mark.parametrize(("name", "alpha", "nbest_size"), [("albert", 0.1, -1), ("albert", 0.5, 4),
                                                           ("llama2", 0.1, -1), ("llama2", 0.3, -1)])
def test_samples_are_drawn_like_sentencepiece(name: str, alpha: float, nbest_size: int) -> None:
    """Each sample spells the text; the mean token count equals sentencepiece's within 5 standard errors."""
    tokenizer, processor = _pair(name)
    text = TEXTS[0]
    ours = [tokenizer.sample(text, alpha, nbest_size, add_special_tokens=False).ids for _ in range(DRAWS)]
    theirs = [processor.encode(text, enable_sampling=True, alpha=alpha, nbest_size=nbest_size)
              for _ in range(DRAWS)]
    assert {processor.decode(ids) for ids in ours} == {processor.decode(processor.encode(text))}
    ours_mean, theirs_mean = statistics.mean(map(len, ours)), statistics.mean(map(len, theirs))
    error = (statistics.pvariance(list(map(len, ours))) / DRAWS
             + statistics.pvariance(list(map(len, theirs))) / DRAWS) ** 0.5
    assert abs(ours_mean - theirs_mean) <= 5 * error + 1e-9, (ours_mean, theirs_mean)


def test_a_seed_repeats_the_draw_and_a_model_without_sampling_says_so() -> None:
    tokenizer, _ = _pair("llama2")
    assert tokenizer.sample(TEXTS[0], 0.3, seed=7).ids == tokenizer.sample(TEXTS[0], 0.3, seed=7).ids
    bert = hfcompat.load(shared_file("refs/bert-base-uncased/vocab.txt"))
    with pytest.raises(TypeError, match="WordPiece"):
        bert.sample("hello", 0.1)
    with pytest.raises(TypeError, match="must be str"):
        tokenizer.sample(["not", "a", "str"], 0.1)
