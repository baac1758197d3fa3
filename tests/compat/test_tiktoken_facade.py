"""hfcompat.compat.tiktoken against tiktoken 0.14 itself: each call of the facade gives what the
same call gives on tiktoken (ids, the error raised and its message, decodes, offsets, numpy
arrays, unstable completions, pickles), on cl100k_base and on a small Encoding built from ranks
here, on both backends.
"""

from __future__ import annotations

import pickle
from typing import Any, Callable

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import hfcompat.compat.tiktoken as facade
from hfcompat import _backend
from hfcompat.errors import MissingFile

from conftest import SHARED, corpus_sample, fixture_texts, shared_file
from tiktoken_files import rank_file

pytestmark = pytest.mark.conformance

ENCODINGS = ["cl100k_base", "small"]
BACKENDS = [name for name in (_backend.COMPILED, _backend.PYTHON)
            if name in _backend.available() and not (name == _backend.COMPILED and _backend.pure_python_forced())]
# A GPT-2-like pattern (not possessive), unlike cl100k's.
SMALL_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
SMALL_TOKENS = [b"he", b"ll", b"hell", b"hello", b" w", b"or", b" wor", b"ld", b" world", b"  ", b"\n\n",
                b"ab", b"abab", b"ababab", "é".encode(), "你".encode(), "你好".encode(), b"\xe4\xbd", b" \xe4",
                b"00", b"000", b" 1", b"'s", b"xyz"]  # xyz: no halves, found whole only
SMALL_SPECIALS = {"<|endoftext|>": 300, "<|end|>": 301, "<|pad|>": 305}
SPECIAL_TOKEN_TEXTS = {"<|endoftext|>", "<|end|>", "<|pad|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>",
                       "<|endofprompt|>"}
SPECIAL_TEXTS = ["<|endoftext|>", "hello <|endoftext|> world", "a<|endoftext|><|endoftext|>b",
                 "x <|fim_prefix|>def f(<|fim_suffix|>)<|fim_middle|> <|endofprompt|>", "<|end|><|pad|>",
                 "<|endoftext", "<|endoftext|>\n\n  <|endoftext|>", "<|end|>oftext|>"]
EDGE_TEXTS = ["", " ", "  \n\n  x", "a\ud800b", "\ud83d\udc4d", "\ud83d", "\r\n\r\n", "Hello'S I'LL", "tab\tend \t",
              "x  ", "\n", "12345678", "in 2012, 8868 people", "hello world", "hello fanta", "ababababab",
              "请考试我的软件！12345", " \x850", "today\n ", "today\n \n", "你好你好", "^" * 300]
UNSTABLE_TEXTS = ["hello fanta", "hello wor", "abab", "你", "today\n ", "hello<|endoftext|>", "x ", "ab \n",
                  "请考试", "'s", "12", ""]
BYTE_TEXTS = [b" \xec\x8b\xa4\xed", b"hello \xe4\xbd", b"\x80", b"\x80\x80\x80", b"abc\n \xff", b"\xe4\xbd\xa0\xe5",
              b"you \xe4", b"hello", b"", b"ab  \xc3", b"\n\n\xf0\x9f"]


def small_ranks() -> dict[bytes, int]:
    """Every byte, then the tokens above."""
    ranks = {bytes([byte]): byte for byte in range(256)}
    ranks.update((token, 256 + index) for index, token in enumerate(SMALL_TOKENS))
    return ranks


def texts() -> list[str]:
    """The edge and special texts, the fixture texts and, with ../shared, corpus lines."""
    found = EDGE_TEXTS + SPECIAL_TEXTS + fixture_texts()
    if SHARED.is_dir():
        for name in ("botchan", "wagahaiwa", "pku_test"):
            found += corpus_sample(name, 25)
    return found


def outcome(call: Callable[[], Any]) -> tuple:
    """What a call gives: ("ok", value) or ("raised", the exception's type name, its message)."""
    try:
        value = call()
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return ("raised", type(error).__name__, str(error))
    return ("ok", value)


def same_outcomes(ours: Any, theirs: Any, calls: list[tuple[str, tuple, dict]]) -> None:
    """Each (method, args, kwargs) gives the same outcome on both encodings (all differences listed)."""
    differ = []
    for method, args, kwargs in calls:
        mine = outcome(lambda: getattr(ours, method)(*args, **kwargs))
        owner = outcome(lambda: getattr(theirs, method)(*args, **kwargs))
        if mine != owner:
            differ.append((method, args, kwargs, mine, owner))
    assert not differ, f"{len(differ)}/{len(calls)} calls differ, first: {differ[0]}"


@pytest.fixture(scope="session")
def built(tiktoken_offline, hfcompat_cache) -> Callable[[str], tuple]:
    """built(name) -> (facade Encoding, tiktoken Encoding), each built once."""
    cache: dict[str, tuple] = {}

    def get(name: str) -> tuple:
        if name not in cache:
            if name == "small":
                arguments = dict(pat_str=SMALL_PATTERN, mergeable_ranks=small_ranks(), special_tokens=SMALL_SPECIALS)
                cache[name] = (facade.Encoding("small", **arguments), tiktoken_offline.Encoding("small", **arguments))
            else:
                cache[name] = (facade.get_encoding(name), tiktoken_offline.get_encoding(name))
        return cache[name]

    return get


@pytest.fixture(params=ENCODINGS)
def pair(request: pytest.FixtureRequest, built, backend: str) -> tuple:
    """(facade, tiktoken) for each encoding, on each backend."""
    return built(request.param)


def encode_calls(text: str) -> list[tuple[str, tuple, dict]]:
    """Every encode variant of one text."""
    eot = {"<|endoftext|>"}
    variants = [{}, {"allowed_special": "all"}, {"disallowed_special": ()}, {"allowed_special": eot},
                {"allowed_special": eot, "disallowed_special": ()}, {"disallowed_special": eot},
                {"allowed_special": "all", "disallowed_special": "all"}, {"allowed_special": {"<|end|>", "nope"}},
                {"disallowed_special": {"hello"}}]
    calls = [("encode_ordinary", (text,), {}), ("_encode_only_native_bpe", (text,), {})]
    # tiktoken panics on an empty piece; a special token's text alone is the one known difference
    # (docs/compat_tiktoken.md): the facade gives the special's id where tiktoken merges the bytes.
    if text and text not in SPECIAL_TOKEN_TEXTS:
        calls.append(("_encode_single_piece", (text[:40],), {}))
    return calls + [("encode", (text,), kwargs) for kwargs in variants]


# ----- encoding ----------------------------------------------------------------------------

def test_encode_calls_match(pair) -> None:
    """encode (every special-token setting), encode_ordinary and tiktoken's private encoders."""
    ours, theirs = pair
    same_outcomes(ours, theirs, [call for text in texts() for call in encode_calls(text)])


def test_piece_equal_to_special_text(built, backend: str) -> None:
    """A pattern that can cut a special token's text as one piece (here `\\S+`): tiktoken merges
    its bytes (specials are found only by `encode`'s own search)."""
    ours, theirs = built("cl100k_base")
    arguments = dict(pat_str=r"\S+|\s+", mergeable_ranks=theirs._mergeable_ranks, special_tokens=theirs._special_tokens)
    mine, owner = facade.Encoding("s", **arguments), type(theirs)("s", **arguments)
    calls = [call for text in ["x <|endoftext|> y", "<|fim_prefix|>", "hello world", "a<|endoftext|>"]
             for call in encode_calls(text)]
    same_outcomes(mine, owner, calls)


def test_encode_to_numpy_matches(pair) -> None:
    """The same uint32 values in a read-only array, and the same error."""
    ours, theirs = pair
    for text in ["hello world", "<|endoftext|> x", "", "你好"]:
        for kwargs in ({}, {"allowed_special": "all"}):
            mine = outcome(lambda: ours.encode_to_numpy(text, **kwargs))
            owner = outcome(lambda: theirs.encode_to_numpy(text, **kwargs))
            if owner[0] == "raised":
                assert mine == owner
                continue
            assert (mine[1].dtype, mine[1].tolist(), mine[1].flags.writeable) == \
                (owner[1].dtype, owner[1].tolist(), owner[1].flags.writeable)


def test_batches_match(pair) -> None:
    """encode_batch and encode_ordinary_batch, with threads and special-token settings."""
    ours, theirs = pair
    batch = texts()[:60]
    calls = [("encode_ordinary_batch", (batch,), {"num_threads": threads}) for threads in (1, 3, 8)]
    calls += [("encode_batch", (batch,), kwargs) for kwargs in
              ({"allowed_special": "all"}, {"disallowed_special": ()}, {"num_threads": 2, "disallowed_special": ()},
               {})]  # the last: a special in the batch raises
    calls += [("encode_batch", (["a", "b"],), {}), ("encode_ordinary_batch", ([],), {})]
    same_outcomes(ours, theirs, calls)


def test_encode_with_unstable_matches(pair) -> None:
    """The stable tokens and the set of completions (tiktoken lists them in no set order)."""
    ours, theirs = pair
    for text in UNSTABLE_TEXTS:
        for kwargs in ({}, {"allowed_special": "all"}):
            mine = outcome(lambda: ours.encode_with_unstable(text, **kwargs))
            owner = outcome(lambda: theirs.encode_with_unstable(text, **kwargs))
            if owner[0] == "raised":
                assert mine == owner, text
                continue
            assert mine[1][0] == owner[1][0], text
            assert sorted(map(tuple, mine[1][1])) == sorted(map(tuple, owner[1][1])), text


def test_encode_with_unstable_refuses_surrogates(built) -> None:
    """A lone surrogate: UnicodeEncodeError with the same message (tiktoken mends it in encode only)."""
    ours, theirs = built("small")
    assert outcome(lambda: ours.encode_with_unstable("a\ud800")) == \
        outcome(lambda: theirs.encode_with_unstable("a\ud800"))


@pytest.mark.parametrize("data", BYTE_TEXTS)
def test_encode_bytes_matches(pair, data: bytes) -> None:
    """_encode_bytes: an invalid UTF-8 end joins the last piece as tiktoken joins it."""
    ours, theirs = pair
    assert ours._encode_bytes(data) == theirs._encode_bytes(data)


# ----- decoding ----------------------------------------------------------------------------

def id_lists(theirs: Any) -> list[list[int]]:
    """Encodings of the texts, lists that split chars, specials, and ids that are no token."""
    lists = [theirs.encode(text, allowed_special="all") for text in texts()[:80]]
    lists += [[39013], [57668, 21043, 39013], [220, 126, 227, 15], [0, 1, 2, 255], [300, 301, 305],
              [theirs.n_vocab], [theirs.n_vocab + 100], [100261], [298], [-1]]
    return lists


def test_decode_calls_match(pair) -> None:
    """decode (each `errors`), decode_bytes, the per-token decodes, offsets and the batch forms."""
    ours, theirs = pair
    lists = id_lists(theirs)
    calls = []
    for ids in lists:
        calls += [("decode", (ids,), {}), ("decode", (ids,), {"errors": "strict"}), ("decode", (ids,), {"errors": "ignore"}),
                  ("decode_bytes", (ids,), {}), ("decode_tokens_bytes", (ids,), {}), ("decode_with_offsets", (ids,), {})]
        calls += [("decode_single_token_bytes", (token,), {}) for token in ids[:5]]
    calls += [("decode_batch", (lists[:20],), {}), ("decode_bytes_batch", (lists[:20],), {"num_threads": 2}),
              ("decode_batch", (lists,), {"errors": "strict"})]
    same_outcomes(ours, theirs, calls)


# ----- the vocabulary ----------------------------------------------------------------------

def test_vocabulary_matches(pair) -> None:
    """Sizes, special tokens, token bytes and single-token look-ups."""
    ours, theirs = pair
    for name in ("name", "n_vocab", "max_token_value", "eot_token", "special_tokens_set", "_pat_str",
                 "_special_tokens", "_mergeable_ranks"):
        assert outcome(lambda: getattr(ours, name)) == outcome(lambda: getattr(theirs, name)), name
    assert repr(ours) == repr(theirs)
    assert ours.token_byte_values() == theirs.token_byte_values()
    probes = [0, 255, 300, 305, 100257, 100276, 100261, theirs.n_vocab, 5000]
    calls = [("is_special_token", (token,), {}) for token in probes]
    calls += [("encode_single_token", (value,), {}) for value in
              ("hello", b"hello", " world", b"\xe4\xbd", "<|endoftext|>", "<|end|>", b"<|pad|>", "no such token",
               b"\xff\xfe", bytearray(b"he"))]
    same_outcomes(ours, theirs, calls)


def test_single_token_round_trip(pair) -> None:
    """encode_single_token inverts decode_single_token_bytes on every id (KeyError on the same ids)."""
    ours, theirs = pair
    for token in range(0, theirs.n_vocab, 7):
        mine, owner = outcome(lambda: ours.decode_single_token_bytes(token)), \
            outcome(lambda: theirs.decode_single_token_bytes(token))
        assert mine == owner, token
        if owner[0] == "ok":
            assert ours.encode_single_token(mine[1]) == token


def test_ranks_without_every_byte(tiktoken_offline, backend: str) -> None:
    """Ranks that lack single bytes: built as tiktoken builds them; the same ids wherever tiktoken
    encodes (a merge may hold an unranked byte: "babc"), a ValueError where it panics (a byte no
    token holds), a KeyError for an id past the last."""
    ranks = {b"a": 0, b"b": 1, b"ab": 2, b" ": 3, b"aab": 4, b"abc": 5}
    arguments = dict(pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens={"<s>": 10})
    ours, theirs = facade.Encoding("toy", **arguments), tiktoken_offline.Encoding("toy", **arguments)
    for text in ["ab aab ba abab", "babc", "abc", "<s>ab", "xabc", "c", "abcc", "bc", "", "a\nb"]:
        try:
            expected = theirs.encode(text, allowed_special="all")
        except BaseException as error:  # tiktoken's PanicException is a BaseException
            if not type(error).__name__ == "PanicException":
                raise
            with pytest.raises(ValueError, match="no rank"):
                ours.encode(text, allowed_special="all")
            continue
        assert ours.encode(text, allowed_special="all") == expected, text
    calls = [("decode_bytes", ([2, 11],), {}), ("decode_bytes", ([2, 12, 7],), {}), ("decode_single_token_bytes", (11,), {}),
             ("decode", ([5, 10, 3],), {}), ("encode_single_token", (b"c",), {}), ("token_byte_values", (), {})]
    same_outcomes(ours, theirs, calls)
    assert (ours.n_vocab, ours.max_token_value) == (theirs.n_vocab, theirs.max_token_value)


# ----- pickling ----------------------------------------------------------------------------

def test_pickle_round_trip(built) -> None:
    """A registered encoding travels as its name (it comes back sharing the registered state);
    another as its ranks; both encode as tiktoken does after the trip."""
    ours, theirs = built("cl100k_base")
    back = pickle.loads(pickle.dumps(ours))
    assert back.__dict__ is ours.__dict__ and pickle.loads(pickle.dumps(theirs)).__dict__ is theirs.__dict__
    assert len(pickle.dumps(ours)) == len(pickle.dumps(facade.get_encoding("cl100k_base"))) < 200
    small, small_owner = built("small")
    back = pickle.loads(pickle.dumps(small))
    assert back.__dict__ is not small.__dict__
    for text in ("hello world", "<|endoftext|>ababab 你好"):
        assert back.encode(text, allowed_special="all") == small_owner.encode(text, allowed_special="all")


# ----- random text -------------------------------------------------------------------------

FRAGMENTS = st.sampled_from(["<|endoftext|>", "<|end|>", "<|pad|>", "<|fim_prefix|>", "hello", " world", "ab",
                             "  ", "\n", "你好", "0000", "'s"])


@pytest.mark.parametrize("backend_name", BACKENDS)
@given(text=st.one_of(st.text(), st.lists(st.one_of(FRAGMENTS, st.text(max_size=3))).map("".join)))
@example(text="\ud83d\udc4d<|endoftext|>\ud800")
def test_random_text_matches(built, backend_name: str, text: str) -> None:
    """Random Unicode (surrogates and special tokens among it): the encode variants and the
    decode of their ids, on both encodings."""
    with _backend.use(backend_name):
        for name in ENCODINGS:
            ours, theirs = built(name)
            same_outcomes(ours, theirs, encode_calls(text))
            ids = theirs.encode(text, disallowed_special=())
            assert ours.decode(ids) == theirs.decode(ids)
            assert outcome(lambda: ours.decode_with_offsets(ids)) == outcome(lambda: theirs.decode_with_offsets(ids))


@pytest.mark.parametrize("backend_name", BACKENDS)
@given(data=st.binary(max_size=24))
@example(data=b" \xec\x8b\xa4\xed")
def test_random_bytes_match(built, backend_name: str, data: bytes) -> None:
    """_encode_bytes of random bytes, on both encodings."""
    with _backend.use(backend_name):
        for name in ENCODINGS:
            ours, theirs = built(name)
            assert ours._encode_bytes(data) == theirs._encode_bytes(data)


@given(text=st.text(alphabet=st.sampled_from("ab helo\n你好'sx0"), max_size=12))
def test_random_unstable_ends_match(built, text: str) -> None:
    """encode_with_unstable on short texts over the small encoding's tokens."""
    ours, theirs = built("small")
    stable, completions = theirs.encode_with_unstable(text)
    mine = ours.encode_with_unstable(text)
    assert (mine[0], sorted(map(tuple, mine[1]))) == (stable, sorted(map(tuple, completions)))


# ----- the registry, model names, constructor and load -------------------------------------

def test_registry_and_model_names(tiktoken_offline) -> None:
    """The same encoding names (from the same tiktoken_ext plugins), the same model mapping and
    the same errors."""
    assert facade.list_encoding_names() == tiktoken_offline.list_encoding_names()
    for model in ("gpt2", "gpt-4", "gpt-4o", "gpt-4o-mini-2024", "text-davinci-003", "text-davinci-edit-001",
                  "gpt-3.5-turbo-0301", "gpt-oss-120b", "ft:gpt-4o:org", "ft:gpt-4:org", "o1", "o3-mini",
                  "text-embedding-3-small", "nope", "gpt-5-nano", "davinci"):
        assert outcome(lambda: facade.encoding_name_for_model(model)) == \
            outcome(lambda: tiktoken_offline.encoding_name_for_model(model)), model
    assert outcome(lambda: facade.get_encoding(5)) == outcome(lambda: tiktoken_offline.get_encoding(5))
    mine, owner = outcome(lambda: facade.get_encoding("nope")), outcome(lambda: tiktoken_offline.get_encoding("nope"))
    assert mine[:2] == owner[:2] and mine[2].splitlines()[:2] == owner[2].splitlines()[:2]
    assert facade.__version__ == tiktoken_offline.__version__
    assert facade.get_encoding("cl100k_base") is facade.encoding_for_model("gpt-4")


def test_constructor_errors_match(tiktoken_offline) -> None:
    """explicit_n_vocab that does not add up and a pattern that is no regex fail as in tiktoken."""
    ranks = small_ranks()
    for kwargs in ({"explicit_n_vocab": 5}, {"explicit_n_vocab": len(ranks) + 3}, {"pat_str": "(unclosed"}):
        arguments = {"pat_str": SMALL_PATTERN, "mergeable_ranks": ranks, "special_tokens": SMALL_SPECIALS, **kwargs}
        mine = outcome(lambda: facade.Encoding("x", **arguments))
        owner = outcome(lambda: tiktoken_offline.Encoding("x", **arguments))
        assert mine[0] == owner[0] == "raised"
        # hfcompat's FormatError is a ValueError that names the field.
        assert mine[1] == owner[1] or (mine[1], owner[1]) == ("FormatError", "ValueError"), (kwargs, mine, owner)


def test_load_matches(tiktoken_offline, tmp_path, monkeypatch) -> None:
    """load_tiktoken_bpe and data_gym_to_mergeable_bpe_ranks read what tiktoken reads, check the
    same hash; a URL not in the cache says which file and where to put it."""
    owner_load = tiktoken_offline.load
    path = str(rank_file("cl100k_base"))
    assert facade.load.load_tiktoken_bpe(path) == owner_load.load_tiktoken_bpe(path)
    assert outcome(lambda: facade.load.load_tiktoken_bpe(path, "0" * 64))[:2] == \
        outcome(lambda: owner_load.load_tiktoken_bpe(path, "0" * 64))[:2]
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    url = "https://openaipublic.blob.core.windows.net/encodings/nothing.tiktoken"
    with pytest.raises(MissingFile, match=str(facade.load.cached_path(url))):
        facade.load.load_tiktoken_bpe(url)
    vocab, encoder = shared_file("refs/gpt2/vocab.bpe"), shared_file("refs/gpt2/encoder.json")
    assert facade.load.data_gym_to_mergeable_bpe_ranks(str(vocab), str(encoder)) == \
        owner_load.data_gym_to_mergeable_bpe_ranks(str(vocab), str(encoder))
