"""A byte-level piece the cache misses goes straight to the merge table (the kernel's
`utf8_columns`) and is offered to the piece cache by the compiled loop (`_pieces.direct_entry`):
both hold to their references (the model's `tokenize` on the piece's byte-level chars, `Cache.offer`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hfcompat
from hfcompat import _backend
from hfcompat.models.base import reference_kernel, utf8_token_columns
from hfcompat.pipeline.bytelevel import bytes_to_chars
from hfcompat.pipeline.cache import Cache

from conftest import shared_file

pytest.importorskip("hfcompat.pipeline._pieces", reason="the compiled core is not built")


@pytest.fixture(scope="module")
def gpt2():
    """GPT-2's tokenizer.json (byte-level BPE, no ignore_merges)."""
    return hfcompat.load(str(shared_file("refs/gpt2/tokenizer.json")))


@pytest.fixture(scope="module")
def oracle_model():
    """tokenizers' own BPE model of the same file."""
    tokenizers = pytest.importorskip("tokenizers")
    return tokenizers.Tokenizer.from_file(str(shared_file("refs/gpt2/tokenizer.json"))).model


@settings(max_examples=300, deadline=None)
@given(piece=st.text(max_size=12))
def test_utf8_columns_equal_the_reference(gpt2, oracle_model, piece: str) -> None:
    """The compiled stand-in gives its twin's columns and the reference's (None for an empty
    piece, which the plan never asks for); its ids and tokens are tokenizers' BPE model's on the
    piece's byte-level chars."""
    piece = piece.encode("utf-8", "replace").decode("utf-8")
    model = gpt2.model
    with _backend.use(_backend.COMPILED):
        columns = model.kernel().utf8_columns(piece)
    with _backend.use(_backend.PYTHON):
        assert model.kernel().utf8_columns(piece) == columns  # the twin table's
        if not piece:
            assert columns is None
            return
        assert columns == utf8_token_columns(piece, reference_kernel(model.tokenize).columns)
    oracle = oracle_model.tokenize(bytes_to_chars(piece.encode("utf-8")))
    assert columns[:2] == ([token.id for token in oracle], [token.value for token in oracle])


def test_ignore_merges_looks_the_whole_piece_up_first(gpt2) -> None:
    """With ignore_merges a whole-word lookup decides first: the table's `whole_piece_tokens`
    gives what `tokenize_utf8` gives, and tokenizers' BPE with ignore_merges on the piece's
    byte-level chars, on both backends; without, the table's `piece_tokens` answers alone."""
    tokenizers = pytest.importorskip("tokenizers")
    model = hfcompat.models.BPE(dict(gpt2.model.vocab), gpt2.model.merges, ignore_merges=True)
    oracle = tokenizers.models.BPE(dict(gpt2.model.vocab), [tuple(pair) for pair in gpt2.model.merges],
                                   ignore_merges=True)
    for backend in (_backend.COMPILED, _backend.PYTHON):
        with _backend.use(backend):
            kernel = model.kernel()
            assert kernel.utf8_columns == model.merge_table().whole_piece_tokens
            for piece in [" hello", "Hello", " 日本", "!!!", " antidisestablishmentarianism"]:
                columns = kernel.utf8_columns(piece)
                assert columns == model.tokenize_utf8(piece)
                expected = oracle.tokenize(bytes_to_chars(piece.encode("utf-8")))
                assert columns[:2] == ([token.id for token in expected], [token.value for token in expected])
            assert kernel.utf8_columns("") is None
            assert kernel.utf8_columns("") == model.tokenize_utf8("")
    with _backend.use(_backend.COMPILED):
        assert gpt2.model.kernel().utf8_columns == gpt2.model.merge_table().piece_tokens


@pytest.mark.parametrize("capacity", [0, 1, 3])
@pytest.mark.parametrize("compiled_cache", [True, False])
def test_misses_are_offered_as_cache_offer_would(gpt2, capacity: int, compiled_cache: bool) -> None:
    """The compiled loop's cache (the compiled twin of Cache, or the reference) ends as
    Cache.offer leaves it, text after text: an entry kept the second time its piece is computed,
    a full cache emptied first."""
    texts = ["a b c", "a b", "b c d e", "a b c d e f", "f f f", "c a"]
    compiled = hfcompat.load(str(shared_file("refs/gpt2/tokenizer.json")))
    encoder = compiled._text_encoder()
    encoder.piece_cache = (pytest.importorskip("hfcompat.pipeline._cache").Cache if compiled_cache else Cache)(capacity)
    expected = Cache(capacity)
    for text in texts:
        compiled.encode(text)
        pieces, _ = compiled.pre_tokenizer.word_pieces(text)
        for piece in pieces:
            if piece not in expected:
                expected.offer(piece, encoder.piece_cache.get(piece))
        assert dict(encoder.piece_cache) == dict(expected)
        if not compiled_cache:
            assert encoder.piece_cache._computed_once == expected._computed_once
    # The keys computed once (C-level in the compiled twin) show in what a second offer keeps.
    for piece in sorted({piece for text in texts for piece in compiled.pre_tokenizer.word_pieces(text)[0]}):
        for cache in (encoder.piece_cache, expected):
            cache.offer(piece, piece)
        assert dict(encoder.piece_cache) == dict(expected)
