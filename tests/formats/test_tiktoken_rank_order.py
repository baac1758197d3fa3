"""Rank files whose tokens rank before their halves (T = A + B, B ranked after T) encode as tiktoken.

tiktoken joins any two adjacent parts whose bytes have a rank, the lowest rank first, whatever
the parts' own ranks: it builds B, then T at once. hfcompat lists T's last join (A, B) at T's
rank, before B's merge. The oracles: tiktoken.Encoding on the same ranks, and `tokenizers` on
the tokenizer.json hfcompat writes. The files: small random rank files (hypothesis), and
cl100k_base with 400 of the tokens that halve others moved to the end of the ranks (about
33,000 tokens then rank before a half, as in a re-ranked multilingual file).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import hfcompat
from hfcompat import _backend
from hfcompat.formats.tiktoken.encodings import CL100K_PATTERN
from hfcompat.formats.tiktoken.merges import derive_merges
from hfcompat.formats.tiktoken.ranks import TiktokenSpec, dump_ranks, read_ranks, tiktoken_tokenizer, write_tiktoken
from hfcompat.tools.lint import lint

from conftest import corpus_sample, fixture_texts
from tiktoken_files import rank_file

pytestmark = pytest.mark.conformance

BACKENDS = [name for name in (_backend.COMPILED, _backend.PYTHON)
            if name in _backend.available() and not (name == _backend.COMPILED and _backend.pure_python_forced())]
SMALL_PATTERN = r"\S+|\s+"
MOVED = 400  # tokens moved to the end of cl100k's ranks
LETTERS = "abc"


def ranked_before_halves(ranks: dict[bytes, int]) -> list[bytes]:
    """The tokens with a split into two tokens one of which ranks after them."""
    return [token for token, rank in ranks.items()
            if any(token[:cut] in ranks and token[cut:] in ranks
                   and max(ranks[token[:cut]], ranks[token[cut:]]) > rank for cut in range(1, len(token)))]


def reranked_cl100k() -> dict[bytes, int]:
    """cl100k_base with MOVED tokens that halve other tokens moved to the end (ranks stay 0..n-1)."""
    ranks = read_ranks(rank_file("cl100k_base"))
    halves = sorted({half for token in ranks for cut in range(1, len(token))
                     if token[:cut] in ranks and token[cut:] in ranks for half in (token[:cut], token[cut:])
                     if len(half) > 1})
    moved = set(random.Random(30).sample(halves, MOVED))
    order = [token for token in ranks if token not in moved] + [token for token in ranks if token in moved]
    return {token: rank for rank, token in enumerate(order)}


@pytest.fixture(scope="module")
def reranked(tiktoken_offline, hfcompat_cache, tmp_path_factory) -> tuple[Path, object]:
    """The re-ranked cl100k as a rank file with its sidecar, and tiktoken's Encoding of it."""
    ranks = reranked_cl100k()
    path = tmp_path_factory.mktemp("reranked") / "reranked.tiktoken"
    path.write_bytes(dump_ranks(ranks))
    sidecar = {"pat_str": CL100K_PATTERN, "special_tokens": {}}
    path.with_name(path.name + ".json").write_text(json.dumps(sidecar), encoding="utf-8")
    encoding = tiktoken_offline.Encoding("reranked", pat_str=CL100K_PATTERN, mergeable_ranks=ranks, special_tokens={})
    return path, encoding


@pytest.fixture(scope="module")
def loaded(reranked) -> dict[str, hfcompat.Tokenizer]:
    """hfcompat's tokenizer of the re-ranked file, loaded on each backend."""
    made = {}
    for name in BACKENDS:
        with _backend.use(name):
            made[name] = hfcompat.load(reranked[0])
    return made


def texts() -> list[str]:
    """Corpus lines (English, Japanese, Chinese, a Wikipedia article) and the fixture texts."""
    lines = []
    for name in ("botchan", "taylorswift", "wagahaiwa", "pku_test"):
        lines += corpus_sample(name)  # HFCOMPAT_SAMPLE_LINES lines of each (200 unless set)
    return lines + fixture_texts()


def test_the_file_has_tokens_ranked_before_their_halves(reranked) -> None:
    """The re-ranked file has the property under test (and tiktoken loads it)."""
    path, encoding = reranked
    assert len(ranked_before_halves(read_ranks(path))) > 30_000
    assert encoding.decode(encoding.encode_ordinary("Hello world")) == "Hello world"


@pytest.mark.parametrize("backend_name", BACKENDS)
def test_reranked_file_encodes_as_tiktoken(reranked, loaded, backend_name: str) -> None:
    """hfcompat gives tiktoken's ids on every line of the corpora sample, on both backends."""
    _, encoding = reranked
    sample = texts()
    with _backend.use(backend_name):
        ours = loaded[backend_name]
        wrong = [text for text in sample if ours.encode_ordinary(text) != encoding.encode_ordinary(text)]
        batch = ours.encode_ordinary_batch(sample[:200])
    assert not wrong, f"{len(wrong)}/{len(sample)} differ, first: {wrong[0]!r}"
    assert batch == [encoding.encode_ordinary(text) for text in sample[:200]]


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60))
def test_reranked_file_on_random_unicode(reranked, loaded, text: str) -> None:
    """Random Unicode: the same ids as tiktoken on both backends."""
    expected = reranked[1].encode_ordinary(text)
    for name in BACKENDS:
        with _backend.use(name):
            assert loaded[name].encode_ordinary(text) == expected, name


def test_reranked_file_converts_to_tokenizer_json_exactly(reranked, loaded, tmp_path) -> None:
    """`tokenizers` on the tokenizer.json hfcompat writes gives tiktoken's ids; that tokenizer.json
    converts back to the same rank file."""
    from tokenizers import Tokenizer as HFTokenizer

    _, encoding = reranked
    loaded[BACKENDS[0]].save(str(tmp_path / "tokenizer.json"))
    hf = HFTokenizer.from_file(str(tmp_path / "tokenizer.json"))
    sample = [text for text in texts() if "\ud800" not in text]
    wrong = [text for text in sample if hf.encode(text, add_special_tokens=False).ids != encoding.encode_ordinary(text)]
    assert not wrong, f"{len(wrong)}/{len(sample)} differ, first: {wrong[0]!r}"
    write_tiktoken(hfcompat.load(tmp_path / "tokenizer.json"), tmp_path / "back.tiktoken")  # and back
    assert (tmp_path / "back.tiktoken").read_bytes() == reranked[0].read_bytes()


def test_reranked_file_round_trips_byte_identical(reranked, loaded, tmp_path) -> None:
    """.tiktoken -> .tiktoken writes the same bytes (the derived merges are the file's own)."""
    write_tiktoken(loaded[BACKENDS[0]], tmp_path / "again.tiktoken")
    assert (tmp_path / "again.tiktoken").read_bytes() == reranked[0].read_bytes()


# ----- small random rank files ----------------------------------------------------------------

@st.composite
def shuffled_rank_files(draw: st.DrawFn) -> dict[bytes, int]:
    """Every byte and short strings of a few letters, ranked in any order (unique ranks)."""
    strings = st.text(alphabet=LETTERS, min_size=2, max_size=6).map(str.encode)
    tokens = [bytes([byte]) for byte in range(256)] + draw(st.lists(strings, unique=True, max_size=30))
    order = draw(st.permutations(tokens))
    return {token: rank for rank, token in enumerate(order)}


def _bytes_then(*tokens: bytes) -> dict[bytes, int]:
    """The 256 bytes at ranks 0..255, then `tokens` in this order."""
    return {bytes([byte]): byte for byte in range(256)} | {token: 256 + i for i, token in enumerate(tokens)}


@settings(max_examples=200, deadline=None)
@given(shuffled_rank_files(), st.text(alphabet=LETTERS + " ", max_size=30))
# aba has two splits that overlap in "ababa" (ab + a, a + ba): only one can ever be adjacent
@example(_bytes_then(b"aba", b"ab", b"ba"), "ababa abab baba")
@example(_bytes_then(b"ab", b"ba", b"aba"), "ababa abab baba")
@example(_bytes_then(b"abc", b"bc", b"ab", b"ca", b"abca"), "abcabca abca")
def test_any_rank_order_encodes_as_tiktoken(tiktoken_offline, ranks: dict[bytes, int], text: str) -> None:
    """Small rank files in any order: hfcompat (both backends) and `tokenizers` (on the converted
    tokenizer.json) give tiktoken's ids."""
    from tokenizers import Tokenizer as HFTokenizer

    expected = tiktoken_offline.Encoding("shuffled", pat_str=SMALL_PATTERN, mergeable_ranks=ranks,
                                         special_tokens={}).encode_ordinary(text)
    for name in BACKENDS:
        with _backend.use(name):
            ours = tiktoken_tokenizer(ranks, TiktokenSpec(None, SMALL_PATTERN, {}))
            assert ours.encode_ordinary(text) == expected, name
    hf = HFTokenizer.from_str(ours.to_str())
    assert hf.encode(text, add_special_tokens=False).ids == expected


@given(st.text(alphabet="abcx ", max_size=20))
def test_tiktokens_no_rank_is_never_joined(tiktoken_offline, text: str) -> None:
    """A token of rank 2**32 - 1 (tiktoken's u32::MAX, "no rank" in its merging) is only ever found whole."""
    ranks = _bytes_then(b"ab") | {b"abc": 2**32 - 1}
    expected = tiktoken_offline.Encoding("no-rank", pat_str=SMALL_PATTERN, mergeable_ranks=ranks,
                                         special_tokens={}).encode_ordinary(text + " abc abcx")
    for name in BACKENDS:
        with _backend.use(name):
            assert tiktoken_tokenizer(ranks, TiktokenSpec(None, SMALL_PATTERN, {})).encode_ordinary(text + " abc abcx") \
                == expected


def test_lint_reports_merges_before_their_parts(reranked, loaded) -> None:
    """`lint` reports the tokens whose merge comes before a part's (none in cl100k itself); each
    is a token tiktoken ranks before that half."""
    found = [f for f in lint(loaded[BACKENDS[0]]) if f.code == "merge-before-part"]
    assert len(found) == 1 and found[0].count > 1000
    ranks = read_ranks(reranked[0])
    parts = {left + right: (left, right) for left, right in derive_merges(ranks)}
    by_rank = {rank: token for token, rank in ranks.items()}
    for token_id in found[0].ids:
        assert max(map(ranks.__getitem__, parts[by_rank[token_id]])) > token_id
    assert not [f for f in lint(hfcompat.load(rank_file("cl100k_base"), encoding="cl100k_base"))
                if f.code == "merge-before-part"]
