"""The compiled BPE merge table (hfcompat/models/_bpe.pyx) against its pure-Python twin
(`bpe.MergeTable`) and HF's heap loop (`MergeTable.merge_with_heap`), on random words and random
merge tables, in HF's order and in sentencepiece's."""

from __future__ import annotations

from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import shared_file
from test_bpe import ALPHABET, ours, random_models
from tiktoken_files import offline_cl100k

import hfcompat
from hfcompat import _backend
from hfcompat.models.bpe import BPE, MergeTable, merge_columns
from hfcompat.pipeline.bytelevel import bytes_to_chars
from hfcompat.pipeline.normalized import char_spans

_bpe = pytest.importorskip("hfcompat.models._bpe", reason="the compiled core is not built")
WORDS = st.lists(st.text(alphabet=ALPHABET + "x", min_size=1, max_size=14), min_size=1, max_size=6)


def table_of(model: BPE) -> object:
    """A compiled merge table of `model`, as the model builds it."""
    return _bpe.MergeTable(model._left_ids, model._right_ids, model._new_ids, model._levels, model.vocab)


def twin_of(model: BPE) -> MergeTable:
    """The reference twin of `table_of(model)`."""
    return MergeTable(model._left_ids, model._right_ids, model._new_ids, model._levels, model.vocab)


def sentencepiece_levels(data: st.DataObject, model: BPE) -> list[int]:
    """Random non-decreasing levels, one per merge (merges of equal piece scores share one)."""
    steps = data.draw(st.lists(st.booleans(), min_size=len(model._new_ids), max_size=len(model._new_ids)))
    levels, level = [], 0
    for step in steps:
        level += step
        levels.append(level)
    return levels


def assert_same_merges(model: BPE, word: str) -> None:
    """The compiled loop and its twin give the heap's merged ids and byte lengths for `word`."""
    ids, lengths = model._symbols(word)
    expected = model._merge_with_heap(list(ids), list(lengths), None)
    for table in (table_of(model), twin_of(model)):
        assert table.merge(ids, lengths) == expected, word
        if not model.continuing_subword_prefix and not model.end_of_word_suffix:
            found = table.tokenize_word(word)
            all_chars_known = all(char in model.vocab for char in word)
            assert (found is not None) == all_chars_known, word
            assert found is None or found == expected, word


@settings(max_examples=300, deadline=None)
@given(data=random_models(), words=WORDS, by_level=st.booleans(), draw=st.data())
def test_merge_loop_equals_the_reference(data: dict, words: list[str], by_level: bool,
                                         draw: st.DataObject) -> None:
    """Random models and words: the same symbols as the heap, HF's or sentencepiece's order."""
    model = ours(data)
    if by_level:
        model.merge_as_sentencepiece(sentencepiece_levels(draw, model), frozenset())
    for word in words:
        assert_same_merges(model, word)


@settings(max_examples=100, deadline=None)
@given(data=random_models(), word=st.text(alphabet="ab", min_size=60, max_size=400))
def test_long_words_merge_alike(data: dict, word: str) -> None:
    """Long words: many heap entries, and the loop runs without the GIL."""
    assert_same_merges(ours(data), word)


@settings(max_examples=200, deadline=None)
@given(tokens=st.lists(st.text(alphabet="abc日é", min_size=1, max_size=4), min_size=1, max_size=20, unique=True),
       ends=st.text(alphabet="abc日éx", max_size=12), starts=st.text(alphabet="abc日éx", max_size=12))
def test_cuts_equal_the_reference(tokens: list[str], ends: str, starts: str) -> None:
    """`cuts` from the compiled char-pair table, against the twin's frozenset of pairs."""
    model = BPE({token: index for index, token in enumerate(tokens)}, [])
    assert table_of(model).cuts(ends, starts) == twin_of(model).cuts(ends, starts)


@settings(max_examples=200, deadline=None)
@given(vocab_tokens=st.lists(st.text(alphabet="abé日", min_size=1, max_size=3), min_size=1, max_size=15, unique=True),
       merges=st.lists(st.tuples(st.text(alphabet="abé日", min_size=1, max_size=2),
                                 st.text(alphabet="abé日", min_size=1, max_size=2)), max_size=12))
def test_merge_columns_equal_the_reference(vocab_tokens: list[str], merges: list[tuple[str, str]]) -> None:
    """The merges' (left, right, new) id columns found in C are the reference's, and both say None
    when a part or a join is not in the vocab (repeated pairs and unknown tokens drawn often)."""
    vocab = {token: i for i, token in enumerate(vocab_tokens)}
    expected = merge_columns(vocab, merges)
    assert _bpe.merge_columns(vocab, merges) == expected
    assert _bpe.merge_columns(vocab, [list(merge) for merge in merges]) == expected  # JSON's lists
    assert merge_columns(vocab, [list(merge) for merge in merges]) == expected
    odd = [*merges, ("a", "b", "c")] if merges else [("a",)]  # not a pair: None from both
    assert _bpe.merge_columns(vocab, odd) is None and merge_columns(vocab, odd) is None


def test_ids_beyond_31_bits_stay_in_python() -> None:
    """A vocab id the C table cannot hold: the model runs the reference table, with the same tokens."""
    model = BPE({"a": 0, "b": 1, "ab": 2 ** 31}, [("a", "b")])
    with _backend.use(_backend.COMPILED):
        model.kernel()
        assert model._compiled_table(_bpe) is None and isinstance(model.merge_table(), MergeTable)
        tokens = model.tokenize("aab")
    with _backend.use(_backend.PYTHON):
        assert ours(model.to_dict()).tokenize("aab") == tokens == [(0, "a", (0, 1)), (2 ** 31, "ab", (1, 3))]


@settings(max_examples=300, deadline=None)
@given(shared_ids=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), min_size=1, max_size=4),
       merges=st.lists(st.sampled_from([("a", "b"), ("b", "c"), ("ab", "c"), ("a", "bc"), ("c", "a"), ("ab", "ab"),
                                        ("c", "c"), ("ca", "b")]), min_size=1, max_size=10),
       words=st.lists(st.text(alphabet="abc", min_size=1, max_size=16), min_size=1, max_size=4))
def test_tokens_sharing_an_id_merge_alike(shared_ids: list[tuple[int, int]], merges: list[tuple[str, str]],
                                          words: list[str]) -> None:
    """Tokens that share an id make stale heap entries look valid (HF applies them at their old
    rank): the compiled loop follows the same rule."""
    names = ["a", "b", "c", "ab", "bc", "abc", "ca", "abab", "cc", "cab"]
    vocab = {name: index for index, name in enumerate(names)}
    for source, target in shared_ids:
        vocab[names[source]] = vocab[names[target]]
    model = BPE(vocab, merges)
    for word in words:
        assert_same_merges(model, word)


@pytest.fixture(scope="module", params=["refs/gpt2/tokenizer.json", "cl100k"])
def byte_level_model(request: pytest.FixtureRequest) -> BPE:
    """A real byte-level BPE model: GPT-2's, and cl100k's (which ignores merges for whole tokens)."""
    path = offline_cl100k() if request.param == "cl100k" else shared_file(request.param)
    return hfcompat.load(path).model


def on_each_backend(model: BPE, answer: Callable[[BPE], object]) -> list[object]:
    """`answer(model)` with the merge table that the model's kernel chooses on each backend."""
    answers = []
    for backend in (_backend.COMPILED, _backend.PYTHON):
        with _backend.use(backend):
            model.kernel()
            answers.append(answer(model))
    return answers


@settings(max_examples=300, deadline=None)
@given(piece=st.text(min_size=1, max_size=24) | st.sampled_from([" hello", "日本語のテキスト", "​🙂‍🙃", "é" * 30]))
def test_utf8_pieces_equal_the_python_path(byte_level_model: BPE, piece: str) -> None:
    """A piece's UTF-8 bytes merged by either table: the ids, strings and char spans that
    `tokenize` gives (the model on the piece's byte-level chars, byte spans mapped back to chars)."""
    model = byte_level_model
    piece = piece.encode("utf-8", "replace").decode("utf-8")  # no lone surrogates: tiktoken scrubs them
    chars = bytes_to_chars(piece.encode("utf-8"))
    tokens = model.tokenize(chars)
    byte_spans = char_spans(chars, [t[2] for t in tokens])  # the model counts UTF-8 bytes of `chars`
    expected = ([t[0] for t in tokens], [t[1] for t in tokens], char_spans(piece, byte_spans))
    assert on_each_backend(model, lambda m: m.tokenize_utf8(piece)) == [expected, expected]
    assert on_each_backend(model, lambda m: m.utf8_ids(piece)) == [expected[0], expected[0]]


@settings(max_examples=300, deadline=None)
@given(data=random_models(), words=st.lists(st.text(alphabet=ALPHABET + "x🤗", max_size=14), min_size=1, max_size=6))
def test_word_columns_equal_the_python_path(data: dict, words: list[str]) -> None:
    """Random models (byte fallback, ignore_merges, unk or not): a word's columns by either table
    are `tokenize`'s ids, strings and char spans (and `ids` their ids); None only where
    `tokenize` decides (decorations, an unknown char that byte fallback does not cover)."""
    model = ours(data)
    decorated = model.continuing_subword_prefix or model.end_of_word_suffix
    for word in words:
        found, again = on_each_backend(model, lambda m: m.columns(word))
        assert found == again, word
        assert on_each_backend(model, lambda m: m.ids(word)) == [None if found is None else found[0]] * 2, word
        if decorated or not word:
            assert found is None
            continue
        tokens = model.tokenize(word)
        expected = ([t[0] for t in tokens], [t[1] for t in tokens], char_spans(word, [t[2] for t in tokens]))
        assert found == expected or (found is None and any(char not in model.vocab for char in word)), word
