"""Each compiled entry point has a pure-Python twin with the same name and parameters, giving
the same results, so that the pure-Python backend runs the same encode plan with the reference
loops."""

from __future__ import annotations

import ast
import base64
import copy
import importlib
import inspect
import math
import struct
from array import array
from itertools import accumulate
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hfcompat import _backend
from hfcompat.errors import TokenizationError
from hfcompat.formats.tiktoken import ranks
from hfcompat.models import bpe, unigram
from hfcompat.normalizers import charsmap
from hfcompat.normalizers.charsmap_builder import build_charsmap
from hfcompat.normalizers.normalization_rules import precompiled_charsmap
from hfcompat.pipeline import pieces
from hfcompat.pipeline.bytelevel import BYTE_CHARS, bytes_to_chars
from hfcompat.pipeline.cache import Cache
from hfcompat.pre_tokenizers import scanned_patterns as scanned
from hfcompat.pre_tokenizers.tiktoken_pattern import CL100K_PATTERN
from hfcompat.trainers import bpe as bpe_trainer
from hfcompat.trainers import unigram_segments as unigram_segments_module
from hfcompat.trainers.unigram_segments import Segments

SETUP = Path(__file__).resolve().parents[2] / "setup.py"
# compiled module -> the module holding its twins (functions of the same names).
PAIRED = {"hfcompat.pipeline._pieces": "hfcompat.pipeline.pieces",
          "hfcompat.pipeline._cache": "hfcompat.pipeline.cache",
          "hfcompat.models._wordpiece": "hfcompat.models.wordpiece",
          "hfcompat.models._bpe": "hfcompat.models.bpe",
          "hfcompat.models._unigram": "hfcompat.models.unigram",
          "hfcompat.normalizers._charsmap": "hfcompat.normalizers.charsmap",
          "hfcompat.pre_tokenizers._scan": "hfcompat.pre_tokenizers.scanned_patterns",
          "hfcompat.trainers._bpe_trainer": "hfcompat.trainers.bpe",
          "hfcompat.trainers._unigram_trainer": "hfcompat.trainers.unigram_segments",
          "hfcompat.formats.tiktoken._ranks": "hfcompat.formats.tiktoken.ranks"}
# The C structures the twins share through .pxd files: C-level only, no entry point to pair.
SHARED_C = {"hfcompat.models._hash_table", "hfcompat.models._char_trie"}


def public_functions(module: Any) -> dict[str, Any]:
    """The module's entry points: those its `__all__` names, else its own public callables."""
    names = getattr(module, "__all__", None)
    if names is not None:
        return {name: getattr(module, name) for name in names}
    return {key: value for key, value in vars(module).items()
            if not key.startswith("_") and callable(value) and getattr(value, "__module__", None) == module.__name__}


def parameters(function: Any) -> list[str]:
    """The names of a function's parameters."""
    return list(inspect.signature(function).parameters)


def assert_same_parameters(name: str, compiled: Any, twin: Any) -> None:
    """A function has its twin's parameters; a class has its twin's public methods, each with
    the same parameters."""
    if not inspect.isclass(compiled):
        assert parameters(compiled) == parameters(twin), name
        return
    assert inspect.isclass(twin), f"{name}: a class's twin is a class"
    methods = [key for key in vars(compiled) if not key.startswith("_")]
    assert methods, name
    for method in methods:
        assert hasattr(twin, method), f"{name}.{method} has no twin"
        assert parameters(getattr(compiled, method)) == parameters(getattr(twin, method)), f"{name}.{method}"


def extension_names() -> set[str]:
    """The compiled modules setup.py builds (read from its EXTENSIONS list, not run)."""
    for node in ast.parse(SETUP.read_text("utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "EXTENSIONS":
            return {name for name, _ in ast.literal_eval(node.value)}
    raise AssertionError("setup.py has no EXTENSIONS")


def test_every_compiled_module_is_listed() -> None:
    """setup.py's extensions are exactly the paired modules and the shared C structures: a
    compiled module without a twin fails."""
    assert extension_names() == set(PAIRED) | SHARED_C


@pytest.mark.parametrize("name", sorted(SHARED_C))
def test_shared_c_modules_have_no_entry_points(name: str) -> None:
    """A module of shared C structures offers Python nothing that would need a twin."""
    module = pytest.importorskip(name, reason="the compiled core is not built")
    assert module.__all__ == []
    assert not [key for key, value in vars(module).items()
                if not key.startswith("_") and callable(value) and not isinstance(value, type)]


@pytest.mark.parametrize("compiled_name, reference_name", sorted(PAIRED.items()))
def test_compiled_functions_have_python_twins(compiled_name: str, reference_name: str) -> None:
    """Every entry point of the compiled module exists in the reference with the same parameters."""
    compiled = pytest.importorskip(compiled_name, reason="the compiled core is not built")
    reference = importlib.import_module(reference_name)
    found = public_functions(compiled)
    assert found, compiled_name
    for name, function in found.items():
        twin = getattr(reference, name, None)
        assert twin is not None, f"{compiled_name}.{name} has no twin in {reference_name}"
        assert_same_parameters(name, function, twin)


WORDS = st.text(alphabet="ab▁c", min_size=1, max_size=5)  # pre-tokenizers give no empty piece


def columns_of(word: str) -> tuple[list[int], list[str], list[tuple[int, int]]] | None:
    """Made-up model columns: one token per char (an empty span for "c"); None for "cc"."""
    if "cc" in word:
        return None
    return [ord(char) for char in word], list(word), [(i, i if char == "c" else i + 1) for i, char in enumerate(word)]


def miss(piece: str) -> pieces.PieceEntry:
    """Made-up entry of a piece the direct path declines: two splits."""
    return [1, 2], ["x", "y"], [(0, len(piece)), (0, 0)], [0, 1], 2, True


@settings(max_examples=300, deadline=None)
@given(words=st.lists(WORDS, max_size=8), aligned=st.booleans(), direct=st.booleans(),
       mark=st.sampled_from([None, "▁"]), capacity=st.integers(0, 3))
def test_assemble_equals_its_twin(words: list[str], aligned: bool, direct: bool, mark: str | None,
                                  capacity: int) -> None:
    """Random pieces, cache sizes, marks and declines: the same columns and the same cache after."""
    compiled = pytest.importorskip("hfcompat.pipeline._pieces", reason="the compiled core is not built")
    starts = [sum(len(word) for word in words[:i]) for i in range(len(words))]
    total = sum(map(len, words))
    alignments = [(i, i + 1) for i in range(total)] if aligned else None
    results, caches = [], []
    for module in (compiled, pieces):
        cache = Cache(capacity)
        found = [module.assemble(words, starts, cache, miss, alignments, columns_of if direct else None, 4, mark)
                 for _ in range(2)]
        results.append(found)
        caches.append((dict(cache), set(cache._computed_once)))
    assert results[0] == results[1]
    assert caches[0] == caches[1]


@settings(max_examples=300, deadline=None)
@given(words=st.lists(WORDS, max_size=8), mark=st.sampled_from(["", "▁"]), capacity=st.integers(0, 3))
def test_piece_ids_equals_its_twin(words: list[str], mark: str, capacity: int) -> None:
    """Random pieces: the same ids (or None) and the same cache after."""
    compiled = pytest.importorskip("hfcompat.pipeline._pieces", reason="the compiled core is not built")
    ids_of = lambda word: None if "cc" in word else [ord(char) for char in word]  # noqa: E731
    results = []
    for module in (compiled, pieces):
        cache: dict[str, list[int]] = {}
        results.append((module.piece_ids(words, cache, ids_of, mark, capacity, 4), cache))
    assert results[0] == results[1]


BPE_TEXT = "abcé日"  # the chars of the words; é and 日 stand for bytes too, in the byte-level pieces
BPE_CHARS = "abc" + bytes_to_chars("é日".encode())  # single-char tokens to choose from


@st.composite
def merge_tables(draw: st.DrawFn) -> tuple[dict[str, int], list[tuple[str, str]], list[int] | None, bool]:
    """A small random vocab grown by random merges (some tokens sharing an id, some bytes'
    <0xHH> tokens), its merges, sentencepiece's levels or HF's order, and whether byte fallback
    is on."""
    tokens = draw(st.lists(st.sampled_from(BPE_CHARS), min_size=1, max_size=len(BPE_CHARS), unique=True))
    merges = []
    for _ in range(draw(st.integers(0, 20))):
        left, right = draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens))
        merges.append((left, right))
        if left + right not in tokens:
            tokens.append(left + right)
    tokens += [f"<0x{byte:02X}>" for byte in draw(st.sets(st.sampled_from(list("é日".encode()))))]
    vocab = {token: index for index, token in enumerate(tokens)}
    for source, target in draw(st.lists(st.tuples(st.sampled_from(tokens), st.sampled_from(tokens)), max_size=2)):
        vocab[source] = vocab[target]
    levels = sorted(draw(st.lists(st.integers(0, 5), min_size=len(merges), max_size=len(merges))))
    return vocab, merges, draw(st.sampled_from([None, levels])), draw(st.booleans())


@settings(max_examples=300, deadline=None)
@given(scores=st.dictionaries(st.text(alphabet="ab▁日", min_size=1, max_size=5),
                              st.sampled_from([0.0, -1.0, -1.5, -2.0, 3.25]), max_size=30))
def test_ranked_splits_equals_its_twin(scores: dict[str, float]) -> None:
    """Random pieces with tied and distinct scores: the same merges in the same order."""
    compiled = pytest.importorskip("hfcompat.models._bpe", reason="the compiled core is not built")
    assert compiled.ranked_splits(scores) == bpe.ranked_splits(scores)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.one_of(st.text(alphabet="ab #\t\u3000é", max_size=6),
                                st.sampled_from(["#version: 0.2", "#version", "a b", "é b", "a  b", " ", "#v a"])),
                      max_size=8))
def test_merge_pairs_equals_its_twin(lines: list[str]) -> None:
    """Legacy merge lines, headers, and lines with no space, two, or other whitespace: the same
    pairs, or the same first faulty line."""
    compiled = pytest.importorskip("hfcompat.models._bpe", reason="the compiled core is not built")
    assert compiled.merge_pairs(lines) == bpe.merge_pairs(lines)


@st.composite
def rank_files(draw: Any) -> bytes:
    """Rank files, most clean, some with one fault: base64 tokens (unpadded, padded oddly, with a
    stray byte), ranks that repeat or pass RANK_MAX or are written oddly, a line without its
    newline, a blank line, a doubled space or a tab, a CR."""
    count = draw(st.integers(1, 8))
    tokens = [base64.b64encode(token) for token in draw(st.lists(st.binary(max_size=100), min_size=count,
                                                                  max_size=count, unique=True))]
    ranks_drawn = [rank * draw(st.sampled_from([1, 7])) for rank in draw(st.permutations(range(count)))]
    lines = [b"%s %d" % (token, rank) for token, rank in zip(tokens, ranks_drawn)]
    fault = draw(st.sampled_from(["none", "none", "token", "rank", "space", "blank", "cr"]))
    at = draw(st.integers(0, count - 1))
    token, rank = tokens[at], ranks_drawn[at]
    if fault == "token":
        token = draw(st.sampled_from([token.rstrip(b"="), token + b"=", b"=" + token, token[:1] + b"=" + token[1:],
                                      token + b"-", b"=", b"==", b"===="]))
        lines[at] = b"%s %d" % (token, rank)
    elif fault == "rank":
        lines[at] = token + b" " + draw(st.sampled_from([b"0%d" % rank, b"+%d" % rank, b"%d" % ranks.RANK_MAX,
                                                          b"%d" % (ranks.RANK_MAX + 1), b"1" + b"0" * 30, b"-1", b"1_0",
                                                          b"%d" % ranks_drawn[0]]))
    elif fault == "space":
        lines[at] = lines[at].replace(b" ", draw(st.sampled_from([b"  ", b"\t", b" \t"])))
    elif fault == "blank":
        lines.insert(at, b"")
    elif fault == "cr":
        lines[at] += b"\r"
    return b"\n".join(lines) + draw(st.sampled_from([b"", b"\n", b"\n\n"]))


def parsed_or_refused(parse: Any, data: bytes) -> Any:
    """What a rank-file parser gives: the ranks, or ValueError when it refuses."""
    try:
        return parse(data, ranks.RANK_MAX)
    except ValueError:
        return ValueError


@settings(max_examples=500, deadline=None)
@given(data=rank_files())
def test_parse_clean_ranks_equals_its_twin(data: bytes) -> None:
    """Clean and faulty rank files: the same ranks, or both refuse (the careful parser then reads)."""
    compiled = pytest.importorskip("hfcompat.formats.tiktoken._ranks", reason="the compiled core is not built")
    assert parsed_or_refused(compiled.parse_clean_ranks, data) == parsed_or_refused(ranks.parse_clean_ranks, data)


def packed(sizes: list[int]) -> bytes:
    """Numbers as the packed Py_ssize_t of a compiled scanner."""
    return struct.pack(f"{len(sizes)}n", *sizes)


@settings(max_examples=300, deadline=None)
@given(table=merge_tables(), words=st.lists(st.text(alphabet=BPE_TEXT, max_size=20)  # long: merged by segments
                                           | st.text(alphabet=BPE_TEXT, min_size=65, max_size=90), min_size=1, max_size=5),
       cut=st.lists(st.integers(0, 6), max_size=12))
def test_merge_table_equals_its_twin(table: tuple[dict[str, int], list[tuple[str, str]], list[int] | None, bool],
                                     words: list[str], cut: list[int]) -> None:
    """Random vocabs, merges (HF's order or sentencepiece's levels, ids shared or not), byte
    fallback or not, and words: both tables give the same merged symbols, ids, columns, tokens
    of byte-level pieces (looked up whole first or not), whole-text ids and cuts."""
    compiled = pytest.importorskip("hfcompat.models._bpe", reason="the compiled core is not built")
    vocab, merges, levels, byte_fallback = table
    vocab_r = {token_id: token for token, token_id in vocab.items()}
    columns = compiled.merge_columns(vocab, merges)
    assert columns == bpe.merge_columns(vocab, merges) and columns is not None
    tables = []
    for module in (compiled, bpe):
        made = module.MergeTable(*columns, levels, vocab)
        made.set_byte_alphabet(BYTE_CHARS)
        made.set_token_strings(vocab_r)
        if byte_fallback:
            made.set_byte_fallback([vocab.get(f"<0x{byte:02X}>") for byte in range(256)])
        tables.append(made)
    data = "".join(words).encode()
    ends = list(accumulate(cut, initial=0))[1:]
    ends = [min(end, len(data)) for end in ends] + [len(data)]
    results = []
    for made in tables:
        found = []
        for word in words:
            symbols = [vocab[char] for char in bytes_to_chars(word.encode()) if char in vocab]
            found += [made.merge(symbols, [1] * len(symbols)), made.tokenize_word(word), made.columns(word, vocab_r),
                      made.ids(word), made.utf8_ids(word), made.utf8_tokens(word, vocab_r), made.piece_tokens(word),
                      made.whole_piece_tokens(word),
                      made.cuts(word, word[::-1])]
        found += [made.encode_utf8_spans(data, packed(ends), whole, counts)
                  for whole in (False, True) for counts in (None, packed([1, len(ends) - 1]))]
        results.append(found)
    assert results[0] == results[1]


UNIGRAM_CHARS = "ab▁é"
# Few distinct scores make ties common; float32 values are what a .model holds.
UNIGRAM_SCORES = st.sampled_from([-1.0, -2.0, -0.5, -3.0]) | st.floats(-30.0, 0.0, width=32)


@settings(max_examples=300, deadline=None)
@given(vocab=st.lists(st.tuples(st.text(UNIGRAM_CHARS, min_size=1, max_size=3), UNIGRAM_SCORES),
                        min_size=1, max_size=20),
       words=st.lists(st.text(UNIGRAM_CHARS + "x", max_size=12), max_size=6), data=st.data())
def test_viterbi_equals_its_twin(vocab: list[tuple[str, float]], words: list[str], data: st.DataObject) -> None:
    """Random vocabularies, scores, reserved ids, unk ids and words (pieces in a row, chars no
    piece has):
    the same candidates, best path, columns and ids, with and without byte fallback, summed in
    float64 and in float32; where the compiled Viterbi declines (None), the twin raises."""
    compiled = pytest.importorskip("hfcompat.models._unigram", reason="the compiled core is not built")
    token_to_ids = {piece: index for index, (piece, _) in enumerate(vocab)}
    ids = st.integers(0, len(vocab) - 1)
    joined = st.lists(st.sampled_from([piece for piece, _ in vocab] + ["x"]), max_size=8).map("".join)
    words = [*words, *data.draw(st.lists(joined, min_size=1, max_size=6))]  # pieces in a row: ties
    arguments = (token_to_ids, vocab, data.draw(st.frozensets(ids, max_size=3)), data.draw(UNIGRAM_SCORES) - 10.0,
                 data.draw(st.none() | ids), data.draw(st.booleans()))
    viterbis = compiled.Viterbi(*arguments), unigram.Viterbi(*arguments)
    for word in words:
        assert viterbis[0].starts(word) == viterbis[1].starts(word), word
        found = viterbis[0].best_path(word)
        if found is None:
            with pytest.raises(TokenizationError):
                viterbis[1].best_path(word)
            continue
        assert found == viterbis[1].best_path(word), word
        for byte_fallback in (False, True):
            assert viterbis[0].columns(word, byte_fallback) == viterbis[1].columns(word, byte_fallback), word
            assert viterbis[0].ids(word, byte_fallback) == viterbis[1].ids(word, byte_fallback), word


@pytest.mark.parametrize("float32, path", [(False, [(0, 1, 0), (1, 2, 1)]), (True, [(0, 2, 2)])])
def test_viterbi_twins_round_sums_to_float32(float32: bool, path: list[tuple[int, int, int]]) -> None:
    """"a" + "b" beats "ab" in float64 by less than a float32 can tell: summed in float32 the two
    paths tie, and the tie keeps the longer piece (both Viterbis)."""
    compiled = pytest.importorskip("hfcompat.models._unigram", reason="the compiled core is not built")
    vocab = [("a", -0.10000000149011612), ("b", -0.20000000298023224), ("ab", -0.30000001192092896)]
    arguments = ({"a": 0, "b": 1, "ab": 2}, vocab, frozenset(), -10.0, None, float32)
    assert compiled.Viterbi(*arguments).best_path("ab") == unigram.Viterbi(*arguments).best_path("ab") == path


# Chars of one to four UTF-8 bytes, so that keys begin and continue with every width.
RULE_CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\0") | st.sampled_from("aé日𝔸")
RULES = st.dictionaries(st.text(RULE_CHARS, min_size=1, max_size=4), st.text(RULE_CHARS, max_size=3),
                        min_size=1, max_size=40)


def assert_charsmap_twins_agree(blob: bytes, texts: list[str]) -> None:
    """The compiled walks of a charsmap and their twins: the same key chars, keys of one char or
    less (in any order), per-char rules (shortest and longest), and rewrites, normalized text
    and expansion of each text."""
    compiled = pytest.importorskip("hfcompat.normalizers._charsmap", reason="the compiled core is not built")
    parsed = charsmap.CharsMap.from_bytes(blob)
    walk = (parsed._units, parsed._root, charsmap._UTF8_WIDTHS)
    assert compiled.key_chars(*walk) == charsmap.key_chars(*walk)
    assert sorted(compiled.char_keys(*walk)) == sorted(charsmap.char_keys(*walk))
    rewriters = [module.Rewriter(parsed._units, parsed._root, parsed._leaf_replacement, parsed._pool)
                 for module in (compiled, charsmap)]
    codes = sorted({ord(char) for text in texts for char in text})
    for shortest in (True, False):
        assert rewriters[0].char_rules(codes, shortest) == rewriters[1].char_rules(codes, shortest)
    for text in texts:
        assert rewriters[0].rewrites(text) == rewriters[1].rewrites(text), text
        assert rewriters[0].normalized(text) == rewriters[1].normalized(text), text
        assert rewriters[0].expansion(text) == rewriters[1].expansion(text), text


@settings(max_examples=150, deadline=None)
@given(rules=RULES, texts=st.lists(st.text(RULE_CHARS | st.sampled_from("\0\ud800"), max_size=12), max_size=4),
       data=st.data())
def test_charsmap_walks_equal_their_twins(rules: dict[str, str], texts: list[str], data: st.DataObject) -> None:
    """A charsmap built from random rules, on random texts (NULs and lone surrogates too) and on
    texts made of its keys."""
    keys = data.draw(st.lists(st.sampled_from(sorted(rules)), max_size=6))
    assert_charsmap_twins_agree(build_charsmap(rules), [*texts, "".join(keys), "x".join(keys)])


@settings(max_examples=100, deadline=None)
@given(texts=st.lists(st.text(max_size=30) | st.sampled_from(["ｱｲｳ　ＡＢＣ①", "ﾊﾟﾋﾟ", "Å\u030a", "…‥", "a  b"]),
                      max_size=4))
def test_nmt_nfkc_walks_equal_their_twins(texts: list[str]) -> None:
    """SentencePiece's default rules (nmt_nfkc), on random Unicode and on text they rewrite."""
    assert_charsmap_twins_agree(precompiled_charsmap("nmt_nfkc"), texts)


SCANNED = {"gpt2": (scanned.ONIGURUMA, scanned.GPT2_PATTERN), "llama3": (scanned.ONIGURUMA, scanned.LLAMA3_PATTERN),
           "cl100k": (scanned.TIKTOKEN, CL100K_PATTERN), "bert": (scanned.BERT, scanned.BERT_PATTERN)}
# What the scan rules tell apart: contraction letters in both cases ("ſ" and "K" fold), apostrophes,
# the blank, other whitespace and line ends, digits, marks, chars Oniguruma's tables do not know,
# astral chars and a lone surrogate (which byte_pieces refuses).
SCAN_CHARS = "sStTdDlLvVrReEmM'' \t\n\r\x0b\x85\xa0\u3000ſKİı09²٣.,!-日é\u0301\u0870🙂\U00031350\ud800、。「」¿\u166d\U000111c9\u2e43\U00011c70"
SCAN_TEXTS = st.text(st.sampled_from(SCAN_CHARS), max_size=20) | st.text(st.characters(), max_size=20)
ALPHABETS = st.sampled_from([BYTE_CHARS, BYTE_CHARS[:255], BYTE_CHARS[:255] + "🙂"])


def outcome(call: Any) -> Any:
    """What `call()` returns, or the type and arguments of what it raises."""
    try:
        return call()
    except (ValueError, UnicodeError) as error:
        return type(error), error.args


def scanned_everything(scanner: Any, texts: list[str], alphabet: str) -> list[Any]:
    """What each method of a scanner gives for each text, and for all of them at once."""
    found: list[Any] = [(scanner.split(text), scanner.findall(text), scanner.utf8_ends(text),
                         outcome(lambda: scanner.byte_pieces(text, alphabet))) for text in texts]  # noqa: B023
    return [*found, scanner.utf8_ends_batch(texts)]


@pytest.mark.parametrize("name", sorted(SCANNED))
@settings(max_examples=300, deadline=None)
@given(texts=st.lists(SCAN_TEXTS, max_size=3), alphabet=ALPHABETS)
def test_scanner_equals_its_twin(name: str, texts: list[str], alphabet: str) -> None:
    """Random Unicode text under GPT-2's, Llama 3's, cl100k's and BERT's patterns: the same pieces, starts,
    UTF-8 ends and byte-level pieces (or the same error) from the compiled Scanner and its twin."""
    pytest.importorskip("hfcompat.pre_tokenizers._scan", reason="the compiled core is not built")
    dialect, pattern = SCANNED[name]
    with _backend.use(_backend.COMPILED):
        compiled = scanned.scanner(pattern, dialect)
    twin = scanned.reference_scanner(pattern, dialect)
    assert type(compiled) is not type(twin)
    assert scanned_everything(compiled, texts, alphabet) == scanned_everything(twin, texts, alphabet)


@st.composite
def bpe_corpora(draw: st.DrawFn) -> tuple[list[list[int]], list[int], list[list[int]] | None, int]:
    """A small random corpus as `load` takes it: words of symbol ids (0-4), counts, char lengths
    (or none) and a max token length."""
    words = draw(st.lists(st.lists(st.integers(0, 4), max_size=10), max_size=8))
    counts = draw(st.lists(st.integers(-3, 40), min_size=len(words), max_size=len(words)))
    lengths = draw(st.none() | st.just([[draw(st.integers(1, 3)) for _ in word] for word in words]))
    return words, counts, lengths, draw(st.integers(1, 8) | st.just(bpe_trainer.NO_LIMIT))


@settings(max_examples=300, deadline=None)
@given(corpus=bpe_corpora(), min_frequency=st.integers(0, 5), vocab_size=st.integers(0, 30))
def test_bpe_merge_loop_equals_its_twin(corpus: tuple[Any, ...], min_frequency: int, vocab_size: int) -> None:
    """Small random corpora: `load` then `merge_hf` give the same merges, the same vocabulary and
    as many progress steps, compiled and in Python."""
    compiled = pytest.importorskip("hfcompat.trainers._bpe_trainer", reason="the compiled core is not built")
    results = []
    for module in (compiled, bpe_trainer):
        words, counts, lengths, max_length = copy.deepcopy(corpus)
        vocabulary = bpe_trainer.Vocabulary()
        for char in "abcde":
            vocabulary.add(char)
        steps: list[None] = []

        def new_token(left: int, right: int) -> int:
            """The id of the merged token (added to the vocabulary)."""
            return vocabulary.add(vocabulary.tokens[left] + vocabulary.tokens[right])  # noqa: B023
        loaded = module.load(words, counts, lengths, max_length)
        merges = module.merge_hf(loaded, min_frequency, vocab_size, vocabulary, new_token,
                                 lambda: steps.append(None))  # noqa: B023
        results.append((merges, vocabulary.tokens, len(steps)))
    assert results[0] == results[1]


@st.composite
def unigram_segments(draw: st.DrawFn) -> tuple[Segments, int]:
    """Random words (ids 0-5) whose every char is a piece, with longer spans up to a window, as
    the trainer's Segments; and the window."""
    window = draw(st.integers(1, 4))
    segments = Segments()
    for _ in range(draw(st.integers(0, 5))):
        size = draw(st.integers(1, 14))
        starts = [[(start + 1, draw(st.integers(0, 5)))] for start in range(size)]
        for start, group in enumerate(starts):
            for end in draw(st.lists(st.integers(start + 1, start + window), max_size=2)):
                if end <= size:
                    group.append((end, draw(st.integers(0, 5))))
        segments.add_word(draw(st.text("ab", min_size=size, max_size=size)), draw(st.integers(1, 5)), starts)
    return segments.done(), window


# Probabilities and scores of the six ids: tiny ones make long segments rescale, zero and -inf kill a piece.
PROBABILITIES = st.lists(st.sampled_from([0.0, 1e-70, 1e-20, 0.05, 0.3, 1.0]), min_size=6, max_size=6)
SCORES = st.lists(st.sampled_from([-math.inf, -40.0, -3.5, -1.0, -0.25, 0.0]), min_size=6, max_size=6)


@settings(max_examples=300, deadline=None)
@given(segmented=unigram_segments(), probs=PROBABILITIES, scores=SCORES)
def test_unigram_counts_equal_their_twins(segmented: tuple[Segments, int], probs: list[float],
                                          scores: list[float]) -> None:
    """Random segments: `expected` and `best_counts` add the same doubles, compiled and in Python."""
    compiled = pytest.importorskip("hfcompat.trainers._unigram_trainer", reason="the compiled core is not built")
    parts, window = segmented
    arrays = (parts.bounds, parts.firsts, parts.ends, parts.ids, parts.weights)
    results = []
    for module in (compiled, unigram_segments_module):
        expected, best = array("d", [0.5] * 6), array("d", [1.0] * 6)
        module.expected(*arrays, array("d", probs), expected, window)
        module.best_counts(*arrays, array("d", scores), best)
        results.append((expected.tolist(), best.tolist()))
    assert results[0] == results[1]
