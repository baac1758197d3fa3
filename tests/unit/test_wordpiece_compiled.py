"""The compiled WordPiece greedy match (hfcompat/models/_wordpiece.pyx) against its pure-Python
twin (`wordpiece.GreedyMatcher`), on random vocabularies, prefixes and words."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_unigram_compiled import assert_twins_agree

from hfcompat import _backend
from hfcompat.models.wordpiece import WordPiece

_wordpiece = pytest.importorskip("hfcompat.models._wordpiece", reason="the compiled core is not built")

ALPHABET = "ab日#"
PREFIXES = st.sampled_from(["##", "", "#", "a", "日#"])
TOKENS = st.text(alphabet=ALPHABET, max_size=5)
WORDS = st.lists(st.text(alphabet=ALPHABET + "x", max_size=16), min_size=1, max_size=6)


@st.composite
def models(draw: st.DrawFn) -> WordPiece:
    """A random WordPiece: tokens with and without the prefix, repeated ids, maybe no [UNK]."""
    prefix = draw(PREFIXES)
    tokens = draw(st.lists(TOKENS, max_size=30))
    tokens += [prefix + token for token in draw(st.lists(TOKENS, max_size=15))]
    tokens += draw(st.sampled_from([[], ["[UNK]"]]))
    vocab = {token: draw(st.integers(0, 40)) for token in tokens}
    return WordPiece(vocab, continuing_subword_prefix=prefix, max_input_chars_per_word=draw(st.integers(0, 20)))


@settings(max_examples=300, deadline=None)
@given(model=models(), words=WORDS)
def test_greedy_pieces_equal_the_reference(model: WordPiece, words: list[str]) -> None:
    """Random vocabularies and words: the compiled pieces are the reference's, tokens and offsets too."""
    with _backend.use(_backend.COMPILED):
        matcher = model._compiled_matcher()
    reference = model.reference_matcher
    assert_twins_agree(model, words, matcher.greedy_pieces, reference.greedy_pieces)
    for word in words:
        assert matcher.columns(word) == reference.columns(word), word
        assert matcher.ids(word) == reference.ids(word), word


def test_ids_beyond_31_bits_stay_in_python() -> None:
    """A vocab id the C trie cannot hold: the model runs the Python match, with the same tokens."""
    model = WordPiece({"a": 0, "##b": 2 ** 31, "[UNK]": 1})
    with _backend.use(_backend.COMPILED):
        assert model._compiled_matcher() is None
        assert [token.id for token in model.tokenize("ab")] == [0, 2 ** 31]


@settings(max_examples=300, deadline=None)
@given(model=models(), words=WORDS)
def test_kernels_equal_the_reference(model: WordPiece, words: list[str]) -> None:
    """Random vocabularies and words: the compiled kernel's columns and ids are the pure one's,
    which are `tokenize_chars`' ids, pieces and char spans (the unknown token's included); where
    `tokenize_chars` raises (no [UNK] in the vocab) the columns raise too and the ids are None."""
    with _backend.use(_backend.COMPILED):
        compiled = model.kernel()
    with _backend.use(_backend.PYTHON):
        reference = model.kernel()
    for word in words:
        answers = []
        for kernel in (compiled, reference):
            try:
                answers.append((kernel.columns(word), kernel.ids(word)))
            except Exception as error:  # noqa: BLE001 - no [UNK] in the vocab: the error is the answer
                answers.append((repr(error), kernel.ids(word)))
        assert answers[0] == answers[1], word
        try:
            tokens = model.tokenize_chars(word)
        except Exception as error:  # noqa: BLE001
            assert answers[0] == (repr(error), None), word
            continue
        assert answers[0][0] == ([t[0] for t in tokens], [t[1] for t in tokens], [t[2] for t in tokens]), word
        assert answers[0][1] == (None if not word else [t[0] for t in tokens]), word
