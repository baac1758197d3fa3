"""Hand-built pipelines where components interact in ways the trained matrix does not reach.

Each case is a small pipeline built in `tokenizers`, read by hfcompat from its JSON, and compared
on texts chosen to hit the interaction (no ../shared needed).
"""

from __future__ import annotations

from typing import Callable

import pytest
from tokenizers import AddedToken, Tokenizer, models, normalizers, pre_tokenizers

from .harness import compare, subject

pytestmark = pytest.mark.conformance

WORDS = {"▁hello": 0, "hello": 1, "[U]": 2, "▁": 3, "x": 4, "▁x": 5, "<sep>": 6}
TEXTS = ["  hello", "hello  ", " x hello", "x<sep>  hello", "<sep>hello", "\u3000hello x ", ""]


def _word_level(normalizer: object, pre_tokenizer: object) -> Tokenizer:
    """A WordLevel pipeline over WORDS with the given normalizer and pre-tokenizer."""
    tokenizer = Tokenizer(models.WordLevel(dict(WORDS), unk_token="[U]"))
    tokenizer.normalizer = normalizer
    tokenizer.pre_tokenizer = pre_tokenizer
    return tokenizer


def _with_sep(tokenizer: Tokenizer) -> Tokenizer:
    """The same pipeline with a raw (not normalized) added token."""
    tokenizer.add_special_tokens([AddedToken("<sep>", normalized=False)])
    return tokenizer


CASES: dict[str, Callable[[], Tokenizer]] = {
    # A segment whose leading chars the normalizer dropped starts later in the original:
    # Metaspace "first" must then not prepend (HF re-slices every normalized segment).
    "strip+metaspace_first": lambda: _word_level(
        normalizers.Strip(), pre_tokenizers.Metaspace(prepend_scheme="first")),
    "strip+metaspace_first+added": lambda: _with_sep(_word_level(
        normalizers.Strip(), pre_tokenizers.Metaspace(prepend_scheme="first"))),
    "strip_left+metaspace_always": lambda: _word_level(
        normalizers.Strip(left=True, right=False), pre_tokenizers.Metaspace()),
    "replace+metaspace_first": lambda: _with_sep(_word_level(
        normalizers.Replace(" ", ""), pre_tokenizers.Metaspace(prepend_scheme="first"))),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_pipeline_edge(case: str) -> None:
    """hfcompat reads the pipeline's JSON and encodes every text like tokenizers."""
    oracle = CASES[case]()
    ours = subject().Tokenizer.from_str(oracle.to_str())
    compare(oracle, ours, TEXTS, pairs=True, label=case)
