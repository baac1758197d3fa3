"""The compiled scan of the known split patterns (hfcompat/pre_tokenizers/_scan.pyx) against the
patterns themselves run by `regex` (the reference), and the tokenizers that use it (GPT-2's,
Llama 3's, Qwen2's and cl100k's) against `tokenizers` and tiktoken on both backends."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
import regex
import tokenizers
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import hfcompat
from hfcompat import _backend
from hfcompat.formats.tiktoken.encodings import CL100K_PATTERN, O200K_PATTERN, R50K_PATTERN
from hfcompat.pipeline.oniguruma import compile_pattern, onig_view
from hfcompat.pre_tokenizers import BertPreTokenizer, PieceForm, Sequence, Split
from hfcompat.pre_tokenizers import scanned_patterns as scanned
from hfcompat.pre_tokenizers.tiktoken_pattern import to_python

from conftest import shared_file

pytest.importorskip("hfcompat.pre_tokenizers._scan", reason="the compiled core is not built")

# What the rules tell apart: contraction letters in both cases (and "ſ", which folds to "s"),
# apostrophes, the blank and other whitespace, line ends, digits of several scripts, marks,
# letters the regex module knows but Oniguruma's tables do not (onig_view), a lone surrogate,
# and punctuation BERT's old Unicode tables and the regex module's disagree on.
TRICKY = ("sStTdDmMlLvVrReExX'' \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000ſKİıßﬆ09²٣①.,!?-/_"
          "日本語é\u0301\u200d🙂👍🏽\U0001fae9\U00031350\u0870\ud800、。「」¿\u166d\U000111c9\u2e43\U00011c70")
TEXTS = st.text(st.sampled_from(TRICKY), max_size=24) | st.text(st.characters(), max_size=24)
RULE_KEYS = list(scanned.RULES)


def reference(dialect: str, pattern: str) -> Callable[[str], tuple[list[str], list[int]]]:
    """The pattern's matches and their starts as hfcompat's regex path finds them (on the
    `onig_view` of the text)."""
    compiled = (compile_pattern(pattern) if dialect == scanned.ONIGURUMA else
                regex.compile(pattern, regex.VERSION1) if dialect == scanned.BERT else regex.compile(to_python(pattern)))

    def matches(text: str) -> tuple[list[str], list[int]]:
        """The matches of the pattern in `text`, and where each starts."""
        found = list(compiled.finditer(onig_view(text)))
        return [text[m.start():m.end()] for m in found], [m.start() for m in found]
    return matches


@pytest.mark.parametrize("dialect, pattern", RULE_KEYS, ids=[f"{d}-{i}" for i, (d, _) in enumerate(RULE_KEYS)])
@settings(max_examples=400, deadline=None)
@given(text=TEXTS)
def test_the_scan_finds_what_the_regex_finds(dialect: str, pattern: str, text: str) -> None:
    """Random text: the compiled scan's pieces and starts are the regex's matches, and (but for
    BERT's, which drops whitespace) they tile the text."""
    with _backend.use(_backend.COMPILED):
        scanner = scanned.scanner(pattern, dialect)
    pieces, starts = scanner.split(text)
    assert (pieces, starts) == reference(dialect, pattern)(text)
    assert pieces == scanner.findall(text)
    if dialect == scanned.BERT:
        assert "".join(pieces) == regex.sub(r"\s", "", text, flags=regex.VERSION1)
    else:
        assert "".join(pieces) == text


@settings(max_examples=400, deadline=None)
@given(text=TEXTS)
def test_bert_pieces_are_tokenizers_splits(text: str) -> None:
    """Random text: BertPreTokenizer's pieces on both backends (the compiled scan, the regex) are
    the splits of tokenizers' BertPreTokenizer, with their char starts."""
    assume(not any("\ud800" <= char <= "\udfff" for char in text))  # tokenizers takes no lone surrogate
    expected = [(piece, start) for piece, (start, _) in tokenizers.pre_tokenizers.BertPreTokenizer().pre_tokenize_str(text)]
    for backend in (_backend.COMPILED, _backend.PYTHON):
        with _backend.use(backend):
            pieces, starts = BertPreTokenizer().word_pieces(text)
        assert list(zip(pieces, starts)) == expected, backend


def test_only_listed_patterns_are_scanned_and_only_when_compiled() -> None:
    """Another pattern (o200k's) has no scanner; on the pure backend none has."""
    with _backend.use(_backend.COMPILED):
        assert scanned.scanner(scanned.GPT2_PATTERN, scanned.ONIGURUMA) is not None
        assert scanned.scanner(scanned.GPT2_PATTERN, scanned.TIKTOKEN) is None
        assert scanned.scanner(O200K_PATTERN, scanned.TIKTOKEN) is None
    with _backend.use(_backend.PYTHON):
        assert scanned.scanner(scanned.GPT2_PATTERN, scanned.ONIGURUMA) is None


def test_llama3_pre_tokenizer_gives_byte_level_pieces() -> None:
    """Split (Llama 3's pattern, isolated or kept by removing the rest) then ByteLevel without
    its regex: each piece is one word of byte-level chars; another behaviour is not."""
    byte_level = hfcompat.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    for behavior, invert in (("isolated", False), ("removed", True)):
        split = Split(scanned.LLAMA3_PATTERN, behavior, invert, is_regex=True)
        assert Sequence([split, byte_level]).piece_route().form is PieceForm.BYTES
        for backend in (_backend.COMPILED, _backend.PYTHON):
            with _backend.use(backend):
                pieces, starts = split.word_pieces("It's 12345 dogs\n\n  ok")
            assert pieces == ["It", "'s", " ", "123", "45", " dogs", "\n\n", " ", " ok"]
            assert starts == [0, 2, 4, 5, 8, 10, 15, 17, 18]
    merged = Split(scanned.LLAMA3_PATTERN, "merged_with_next", False, is_regex=True)
    assert merged.word_pieces("a b") is None and Sequence([merged, byte_level]).piece_route() is None


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """tokenizer.json files hfcompat converts from ../shared (Llama 3's and Qwen2's from
    llama.cpp's vocab files, cl100k's from its rank file), each once."""
    directory = tmp_path_factory.mktemp("converted")

    def convert(relative: str) -> Path:
        """The tokenizer.json of one file."""
        out = directory / (Path(relative).stem + ".json")
        if not out.exists():
            hfcompat.convert(shared_file(relative), out)
        return out
    return convert


SCANNED_FILES = ["refs/gguf/ggml-vocab-llama-bpe.gguf", "refs/gguf/ggml-vocab-qwen2.gguf",
                 "refs/tiktoken/cl100k_base.tiktoken", "refs/gpt2/tokenizer.json"]


def columns(encoding: Any) -> tuple:
    """ids, tokens and offsets of an Encoding of either library."""
    return encoding.ids, encoding.tokens, encoding.offsets


@pytest.mark.parametrize("relative", SCANNED_FILES)
def test_scanned_tokenizers_equal_tokenizers(relative: str, converted: Callable[[str], Path], corpora: Any) -> None:
    """Corpus lines and code through tokenizer.json files whose pattern is scanned: both backends
    give the Encodings `tokenizers` gives."""
    path = shared_file(relative) if relative.endswith(".json") else converted(relative)
    official = tokenizers.Tokenizer.from_file(str(path))
    lines = corpora("botchan", 100) + corpora("pku_test", 100) + corpora("wagahaiwa", 100)
    lines += Path(regex.__file__).read_text(encoding="utf-8").split("\n")[:200]
    lines += ["It's 'LL 'Ve ſ 123456 x\r\n\r\n  \t y  ", "  \n  ", "'", " '"]
    expected = [columns(official.encode(line)) for line in lines]
    for backend in (_backend.COMPILED, _backend.PYTHON):
        with _backend.use(backend):
            tokenizer = hfcompat.load(path)
            assert [columns(tokenizer.encode(line)) for line in lines] == expected, backend


@settings(max_examples=150, deadline=None)
@given(text=TEXTS)
def test_cl100k_encode_ordinary_equals_tiktoken(text: str, cl100k: Any) -> None:
    """Random text through cl100k_base's rank file: tiktoken's ids on both backends."""
    tiktoken_encoding, ours = cl100k
    expected = tiktoken_encoding.encode_ordinary(text)
    for backend in (_backend.COMPILED, _backend.PYTHON):
        with _backend.use(backend):
            assert ours.encode_ordinary(text) == expected, backend


@pytest.fixture(scope="module")
def cl100k() -> tuple[Any, Any]:
    """tiktoken's cl100k_base and hfcompat's, from the same rank file."""
    tiktoken_load = pytest.importorskip("tiktoken.load")
    import tiktoken

    path = shared_file("refs/tiktoken/cl100k_base.tiktoken")
    ranks = tiktoken_load.load_tiktoken_bpe(str(path))
    encoding = tiktoken.Encoding("cl100k_scan_test", pat_str=CL100K_PATTERN,
                                 mergeable_ranks=ranks, special_tokens={})
    return encoding, hfcompat.load(path)


def test_cl100k_batch_in_threads_equals_tiktoken(cl100k: Any, corpora: Any) -> None:
    """encode_ordinary_batch (threads; the compiled merges release the GIL) gives tiktoken's ids."""
    tiktoken_encoding, ours = cl100k
    lines = corpora("botchan", 200) + corpora("pku_test", 200) + corpora("wagahaiwa", 200)
    expected = tiktoken_encoding.encode_ordinary_batch(lines)
    for backend in (_backend.COMPILED, _backend.PYTHON):
        with _backend.use(backend):
            assert ours.encode_ordinary_batch(lines, num_threads=4) == expected, backend
            assert ours.encode_ordinary_batch(lines[:3], num_threads=1) == expected[:3], backend
            assert ours.encode_ordinary_batch(["", "a", "", "\ud800x"]) == [[], [64], [], [5809, 87]], backend
            assert ours.encode_ordinary_batch([]) == [], backend


def test_a_rank_far_past_the_others_costs_no_memory(tmp_path: Path) -> None:
    """Ranks are ids: one near 10**9 beside 256 byte ranks must not size a table by the largest
    id (the whole-token table once asked for 16 GB here; found by fuzzing). Both backends
    encode as tiktoken does."""
    import base64

    import tiktoken

    ranks = {bytes([byte]): byte for byte in range(256)}
    ranks[b"he"] = 988_888_866
    path = tmp_path / "sparse.tiktoken"
    path.write_text("".join(f"{base64.b64encode(token).decode()} {rank}\n" for token, rank in ranks.items()))
    pattern = R50K_PATTERN
    expected = tiktoken.Encoding("sparse", pat_str=pattern, mergeable_ranks=ranks,
                                 special_tokens={}).encode_ordinary("hehe he")
    for backend in (_backend.COMPILED, _backend.PYTHON):
        with _backend.use(backend):
            tokenizer = hfcompat.load(path, pattern=pattern)
            assert tokenizer.encode_ordinary("hehe he") == expected, backend
