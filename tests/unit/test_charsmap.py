"""hfcompat.normalizers.charsmap against tokenizers 0.23.3's Precompiled normalizer and sentencepiece 0.2.3.

Charsmaps: T5's (tokenizer.json), ALBERT's and XLNet's (spiece.model), Llama-2's (empty), and
the nfkc, nfkc_cf and nmt_nfkc_cf rule sets sentencepiece builds in. HF's output text and
per-char original offsets are read through a Tokenizer cutting the normalized text into
one-char pre-tokens.
"""

from __future__ import annotations

import base64
import json
import struct
from functools import lru_cache
from typing import Any

import pytest
from conftest import shared_file
import regex
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer
from tokenizers.normalizers import Precompiled

from hfcompat.normalizers.charsmap import CharsMap, longest_rule_rewrites, precompiled_normalize, sentencepiece_normalized
from hfcompat.normalizers.charsmap_builder import build_charsmap
from hfcompat.errors import FormatError
from hfcompat.pipeline.normalized import NormalizedString

# Charsmaps read from ../shared; the built-in sentencepiece rule sets need no file.
SHARED_CHARSMAPS = ("t5", "albert", "xlnet")
BUILTIN_CHARSMAPS = ("nfkc", "nfkc_cf", "nmt_nfkc_cf")
ALL_CHARSMAPS = SHARED_CHARSMAPS + BUILTIN_CHARSMAPS
MODEL_FILES = {"albert": "refs/albert/spiece.model", "xlnet": "refs/xlnet/spiece.model",
               "llama2": "refs/llama2/tokenizer.model"}

HAND_CASES = [
    "a\u0301\u0301",  # FORMATS A.4: HF keeps one accent, SentencePiece both
    "ｶﾞ",  # 6 bytes: char by char in HF
    "\u1100\u1161\u11a8",  # Hangul jamo 각
    "\u00aa\u0301",  # ª + mark: ª's rule replaces the whole cluster
    "각",
    "\u1100\u1161\u11a8\u1100\u1161",  # Hangul NFD, two syllables
    "ﬁ\u0301",  # a rule on the first char swallows the mark
    "\r\n", "x\r\ny", "\r\r\n\n", "a\rb",
    "\x01ab", "\x01\x02", "a\x01", "™\x1eg", "™\x1e\x1e", "½\x01",
    "Ｈｅｌｌｏ\u3000ｗｏｒｌｄ！", "①②③", "㍿㌀", "ﾊﾟﾋﾟﾌﾟ", "ｶﾞｷﾞ",
    "e\u0301\u0302\u0303\u0304", "\u0301abc", "\u3099",
    "👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "👍🏽", "🇯🇵🇫🇷", "\u200d",
    "क्\u200dष क्ष", "ﬃ", "ß", "ẞ", "İ", "Σ", "ﬀ\u0327",
    "½\u094d\u0937", "ª\u094d\u0937", "a\u094d\u0937", "\u0958\u094d\u0937",  # linker + consonant
    "\u0600\u0915", "\u0600ª", "…\x01", "\x01…",
    "A\u1adf", "ª\u1adf", "A\u1adf\u0301", "\u0600\u1adf", "A\U00010ef2",  # Unicode 17 marks
    "plain ascii text", "",
]

# Chars likely to hit rules or joins: half-width katakana, compatibility forms, marks, jamo...
INTERESTING = (
    [chr(c) for c in range(0xFF61, 0xFFA0)]
    + [chr(c) for c in range(0xFF01, 0xFF5F)]
    + [chr(c) for c in range(0x2460, 0x24A0)]
    + [chr(c) for c in range(0xFB00, 0xFB07)]
    + [chr(c) for c in range(0x3300, 0x3320)]
    + [chr(c) for c in range(0x0300, 0x0370, 3)]
    + [chr(c) for c in range(0x1100, 0x1200, 5)]
    + [chr(c) for c in range(0x00, 0x20)]
    + [chr(c) for c in range(0x0900, 0x0980, 3)]
    + list("\u00aa\u00bd\u2122\u3099\u309a\u200d\ufe0f\u2028\u3000\u00a0\u0645\u0651\u0627\u0e33")
    + list("\u094d\u0937\u0958\u0600\u2026\ufeff")
    + ["\r\n", "👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "👍🏽", "🇯🇵", "ｶﾞ", "각", "가\u11a8"]
)
TEXTS = st.lists(
    st.one_of(st.sampled_from(INTERESTING), st.characters(codec="utf-8"),
              st.sampled_from("abbc xyzé")),
    max_size=24,
).map("".join)


# --------------------------------------------------------------------------- charsmaps


def pb2() -> Any:
    """sentencepiece's protobuf module (it needs the protobuf package, a test dependency)."""
    try:
        from sentencepiece import sentencepiece_model_pb2
    except ImportError as error:
        pytest.fail(f"sentencepiece_model_pb2 cannot be imported (install protobuf): {error}")
    return sentencepiece_model_pb2


def model_charsmap(relative: str) -> bytes:
    """normalizer_spec.precompiled_charsmap of a SentencePiece .model file."""
    proto = pb2().ModelProto()
    proto.ParseFromString(shared_file(relative).read_bytes())
    return proto.normalizer_spec.precompiled_charsmap


def builtin_charsmap(rule: str) -> bytes:
    """The charsmap sentencepiece compiles for one of its built-in rule sets."""
    spec = pb2().NormalizerSpec()
    spec.ParseFromString(spm.SentencePieceNormalizer(rule_name=rule).serialized_normalizer_spec())
    return spec.precompiled_charsmap


@lru_cache(maxsize=None)
def blob(name: str) -> bytes:
    """The charsmap blob called `name`."""
    if name == "t5":
        data = json.loads(shared_file("refs/t5/tokenizer.json").read_text(encoding="utf-8"))
        return base64.b64decode(data["normalizer"]["precompiled_charsmap"])
    if name in MODEL_FILES:
        return model_charsmap(MODEL_FILES[name])
    return builtin_charsmap(name)


@lru_cache(maxsize=None)
def charsmap(name: str) -> CharsMap:
    """hfcompat's parse of a named charsmap."""
    return CharsMap.from_bytes(blob(name))


def precompiled_json(name: str) -> dict[str, str]:
    """The tokenizer.json form of HF's Precompiled normalizer on a named charsmap."""
    return {"type": "Precompiled",
            "precompiled_charsmap": base64.b64encode(blob(name)).decode("ascii")}


def per_char_tokenizer(normalizer: dict[str, Any]) -> Tokenizer:
    """An HF tokenizer with this normalizer that makes one token per normalized char."""
    config = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
        "normalizer": normalizer,
        "pre_tokenizer": {"type": "FixedLength", "length": 1},
        "post_processor": None, "decoder": None,
        "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"},
    }
    return Tokenizer.from_str(json.dumps(config))


@lru_cache(maxsize=None)
def oracle(name: str) -> tuple[Precompiled, Tokenizer]:
    """HF's Precompiled normalizer, and a tokenizer making one token per normalized char."""
    return Precompiled(blob(name)), per_char_tokenizer(precompiled_json(name))


def theirs(name: str, text: str) -> tuple[str, list[tuple[int, int]]]:
    """HF's normalized text and the original char span of each normalized char."""
    normalizer, tokenizer = oracle(name)
    return normalizer.normalize_str(text), tokenizer.encode(text, add_special_tokens=False).offsets


def ours(name: str, text: str) -> tuple[str, list[tuple[int, int]]]:
    """hfcompat's normalized text and the original char span of each normalized char."""
    ns = NormalizedString(text)
    precompiled_normalize(charsmap(name), ns)
    return char_spans(ns)


def char_spans(ns: NormalizedString) -> tuple[str, list[tuple[int, int]]]:
    """The normalized text of `ns` and the original char span of each of its chars."""
    return ns.normalized, ns.spans_to_original([(i, i + 1) for i in range(len(ns.normalized))])


def mismatches(name: str, texts: list[str]) -> list[tuple[str, Any, Any]]:
    """The texts on which hfcompat and HF disagree, with both results."""
    bad = []
    for text in texts:
        mine, reference = ours(name, text), theirs(name, text)
        if mine != reference:
            bad.append((text, mine, reference))
    return bad


@lru_cache(maxsize=None)
def sentencepiece_oracle(name: str) -> spm.SentencePieceNormalizer:
    """SentencePiece's own normalizer on a charsmap, with its whitespace handling off."""
    spec = pb2().NormalizerSpec(
        name=name, precompiled_charsmap=blob(name), add_dummy_prefix=False,
        remove_extra_whitespaces=False, escape_whitespaces=False)
    return spm.SentencePieceNormalizer(normalizer_spec=spec.SerializeToString())


def longest_match_normalize(cm: CharsMap, text: str) -> str:
    """SentencePiece's rewriting loop: the longest rule at each position, else one char."""
    data = text.encode("utf-8")
    out, position = [], 0
    while position < len(data):
        match = cm.longest_match(data, position)
        if match is None:
            width = len(data[position:position + 4].decode("utf-8", "ignore")[:1].encode("utf-8"))
            out.append(data[position:position + width].decode("utf-8"))
            position += width
        else:
            out.append(match[0])
            position += match[1]
    return "".join(out)


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize("name", ALL_CHARSMAPS)
def test_reference_blobs_parse_and_round_trip(name: str) -> None:
    cm = charsmap(name)
    assert cm.to_bytes() == blob(name)
    assert not cm.is_identity
    assert cm == CharsMap.from_bytes(bytearray(blob(name)))


def test_llama2_charsmap_is_empty_identity() -> None:
    data = blob("llama2")
    assert data == b""
    cm = CharsMap.from_bytes(data)
    assert cm.is_identity and cm.to_bytes() == b""
    assert cm.prefix_matches("ﬁ".encode()) == [] and cm.longest_match(b"a") is None
    ns = NormalizedString("ｶﾞﬁ\x01")
    precompiled_normalize(cm, ns)
    assert ns.normalized == "ｶﾞﬁ\x01" and ns.is_identity()
    # SentencePiece treats the empty charsmap as identity; HF cannot even build Precompiled on it.
    assert sentencepiece_oracle("llama2").normalize("ｶﾞﬁ\x01") == "ｶﾞﬁ\x01"
    with pytest.raises(Exception, match="Cannot parse precompiled_charsmap"):
        Precompiled(b"")


def test_formats_b3_worked_example() -> None:
    """FORMATS B.3 on sentencepiece's nfkc rules: root at 63, ﬁ -> fi, ｶﾞ -> カ then ガ."""
    data = blob("nfkc")
    (first_unit,) = struct.unpack_from("<I", data, 4)
    assert (first_unit >> 10) << ((first_unit & 0x200) >> 6) == 63
    cm = charsmap("nfkc")
    assert cm.prefix_matches("ﬁ".encode()) == [("fi", 3)]
    assert cm.prefix_matches("ｶﾞ".encode()) == [("カ", 3), ("ガ", 6)]
    assert cm.longest_match("ｶﾞ".encode()) == ("ガ", 6)
    assert cm.shortest_match("ｶﾞ".encode()) == ("カ", 3)
    assert cm.prefix_matches("xｶﾞ".encode(), 1) == [("カ", 3), ("ガ", 6)]
    assert cm.prefix_matches(b"abc") == [] and cm.shortest_match(b"") is None
    assert sentencepiece_oracle("nfkc").normalize("ｶﾞﬁ") == "ガfi"
    assert theirs("nfkc", "ｶﾞ")[0] == ours("nfkc", "ｶﾞ")[0] == "カ\u3099"


def test_prefix_search_stops_at_nul() -> None:
    cm = charsmap("nfkc")
    assert cm.prefix_matches(b"\x00\xef\xac\x81") == []
    assert cm.prefix_matches(b"\xef\xac\x81\x00") == [("fi", 3)]


def _blob_with(trie: bytes, pool: bytes) -> bytes:
    """A charsmap blob made of a raw trie and pool."""
    return struct.pack("<I", len(trie)) + trie + pool


MALFORMED = {
    "short header": b"\x01\x00",
    "trie larger than blob": struct.pack("<I", 64) + b"\x00" * 8,
    "pool not UTF-8": _blob_with(b"\x00\x04\x00\x00", b"a\xff\x00"),
}


@pytest.mark.parametrize("label", sorted(MALFORMED))
def test_malformed_blobs_raise_format_error_like_hf_refuses(label: str) -> None:
    with pytest.raises(Exception, match="Cannot parse precompiled_charsmap"):
        Precompiled(MALFORMED[label])
    with pytest.raises(FormatError) as caught:
        CharsMap.from_bytes(MALFORMED[label])
    assert caught.value.field == "precompiled_charsmap"


@pytest.mark.parametrize("data", [struct.pack("<I", 0) + b"x\x00", _blob_with(b"\x00" * 6, b"")])
def test_blobs_hf_accepts_but_cannot_use_are_rejected(data: bytes) -> None:
    """A zero-size trie (HF panics on use) or one of partial units (HF shifts the pool)."""
    with pytest.raises(FormatError, match="trie size") as caught:
        CharsMap.from_bytes(data)
    assert caught.value.field == "precompiled_charsmap"


def test_rule_pointing_past_the_pool_raises_format_error() -> None:
    # The root leads to pos 1; byte 'a' goes to 1 ^ 0x61 = 0x60, an edge labelled 'a' with a
    # leaf, whose offset 1 leads to the leaf unit at 0x61, holding pool offset 50.
    units = [0] * 256
    units[0] = 1 << 10
    units[0x60] = (1 << 10) | (1 << 8) | 0x61
    units[0x61] = 0x80000000 | 50
    data = _blob_with(struct.pack("<256I", *units), b"x\x00")
    with pytest.raises(FormatError, match="past the 2-byte pool") as caught:
        CharsMap.from_bytes(data)  # refused on load, before any text meets the rule
    assert caught.value.field == "precompiled_charsmap"


# --------------------------------------------------------------------------- HF's normalizer


@pytest.mark.parametrize("name", ALL_CHARSMAPS)
@pytest.mark.parametrize("text", HAND_CASES)
def test_hand_cases_match_hf(name: str, text: str) -> None:
    assert ours(name, text) == theirs(name, text)


@pytest.mark.parametrize("name", ["t5", "nfkc", "nmt_nfkc_cf"])
@pytest.mark.parametrize("corpus", ["botchan", "wagahaiwa", "pku_test"])
def test_corpus_lines_match_hf(name: str, corpus: str, corpora: Any) -> None:
    lines = corpora(corpus, 300)
    assert mismatches(name, lines) == []


def test_whole_corpus_chunks_match_hf(corpora: Any) -> None:
    """Multi-line chunks, CRLF included, through T5's charsmap."""
    lines = corpora("wagahaiwa", 400)
    chunks = ["\n".join(lines[i:i + 20]) for i in range(0, len(lines), 20)]
    assert mismatches("t5", chunks) == []


@pytest.mark.parametrize("name", ["t5", "nfkc_cf"])
@given(text=TEXTS)
def test_random_text_matches_hf(name: str, text: str) -> None:
    assert ours(name, text) == theirs(name, text)


@pytest.mark.parametrize("name", ["t5", "nfkc_cf"])
def test_every_bmp_char_alone_matches_hf(name: str) -> None:
    """Each char on its own, and after an ASCII letter (so removals are charged to it)."""
    normalizer, _ = oracle(name)
    chars = [chr(code) for code in range(1, 0x10000) if not 0xD800 <= code < 0xE000]
    assert [c for c in chars if ours(name, c)[0] != normalizer.normalize_str(c)] == []
    texts = ["x" + c + "y" for c in chars[::7]]
    assert mismatches(name, texts) == []


def test_clusters_cut_like_hf_after_every_joining_char() -> None:
    """Every char `regex` lets join the char before it, after "A" (nfkc_cf folds it) and "ª"."""
    joiner = regex.compile(r"[\p{GCB=Extend}\p{GCB=SpacingMark}\p{GCB=ZWJ}]")
    marks = [chr(code) for code in range(0x300, 0x110000)
             if not 0xD800 <= code < 0xE000 and joiner.match(chr(code))]
    assert mismatches("nfkc_cf", ["A" + mark for mark in marks]) == []
    assert mismatches("t5", ["\u00aa" + mark for mark in marks if mark < "\U00010000"]) == []


def test_unchanged_and_one_to_one_texts_keep_identity_alignments() -> None:
    cm = charsmap("nfkc")
    for text, expected in [("plain ASCII stays as is", "plain ASCII stays as is"),
                           ("ＡＢＣ（１）", "ABC(1)"), ("吾輩は猫である。", "吾輩は猫である。")]:
        ns = NormalizedString(text)
        precompiled_normalize(cm, ns)
        assert ns.normalized == expected == theirs("nfkc", text)[0]
        assert ns.is_identity()


def test_precompiled_normalize_on_a_slice_keeps_its_shift() -> None:
    text = "xx ﬁ½ ｶﾞ a\u0301\u0301"
    ns = NormalizedString(text).slice(3, len(text))
    precompiled_normalize(charsmap("t5"), ns)
    reference_text, reference_spans = theirs("t5", text)
    assert ns.normalized == reference_text[3:]
    spans = [ns.normalized_to_original(i, i + 1) for i in range(len(ns.normalized))]
    assert [(a + ns.original_shift, b + ns.original_shift) for a, b in spans] == reference_spans[3:]


@lru_cache(maxsize=None)
def replace_then_precompiled() -> Tokenizer:
    """HF's Sequence of Replace("b" -> "<b>") and T5's Precompiled, one token per char."""
    replace = {"type": "Replace", "pattern": {"String": "b"}, "content": "<b>"}
    return per_char_tokenizer({"type": "Sequence",
                               "normalizers": [replace, precompiled_json("t5")]})


@pytest.mark.parametrize("text", [f"b{case}b" for case in HAND_CASES] + ["\x01ab", "b…\r\nb"])
def test_after_an_edit_that_moved_alignments(text: str) -> None:
    """Precompiled after Replace("b" -> "<b>"), as in an HF Sequence: alignments no longer 1:1."""
    check_after_replace(text)


@given(text=TEXTS)
def test_random_text_after_an_edit_that_moved_alignments(text: str) -> None:
    check_after_replace(text)


def check_after_replace(text: str) -> None:
    """Replace then Precompiled on `text`: same text and offsets as HF's Sequence."""
    tokenizer = replace_then_precompiled()
    ns = NormalizedString(text)
    ns.replace("b", "<b>")
    precompiled_normalize(charsmap("t5"), ns)
    expected = tokenizer.normalizer.normalize_str(text)
    assert char_spans(ns) == (expected, tokenizer.encode(text, add_special_tokens=False).offsets)


# --------------------------------------------------------------------------- longest match


@pytest.mark.parametrize("name", ["t5", "nfkc", "nmt_nfkc_cf"])
def test_longest_match_rewrites_like_sentencepiece(name: str, corpora: Any) -> None:
    texts = corpora("wagahaiwa", 100) + corpora("pku_test", 100) + HAND_CASES
    normalizer = sentencepiece_oracle(name)
    cm = charsmap(name)
    assert [t for t in texts if longest_match_normalize(cm, t) != normalizer.normalize(t)] == []


@given(text=TEXTS)
def test_longest_match_on_random_text_like_sentencepiece(text: str) -> None:
    assert longest_match_normalize(charsmap("nfkc_cf"), text) == \
        sentencepiece_oracle("nfkc_cf").normalize(text)


@settings(max_examples=150, deadline=None)
@given(rules=st.dictionaries(st.text(st.sampled_from("ab\r\t\x01é日"), min_size=1, max_size=3),
                             st.text(st.sampled_from(" xé\u2581"), max_size=2), min_size=1, max_size=12),
       texts=st.lists(st.text(st.sampled_from("ab c\r\t\x01\x7f"), max_size=16), max_size=6))
def test_ascii_shortcut_equals_the_rewrites(rules: dict[str, str], texts: list[str]) -> None:
    """An ASCII text's SentencePiece normalization by the bytes table (when the rules allow one)
    is what the longest-key rewrites give."""
    charsmap = CharsMap.from_bytes(build_charsmap(rules))
    for text in texts:
        expected, done = "", 0
        for start, chars, replacement in longest_rule_rewrites(charsmap, text):
            expected += text[done:start] + replacement
            done = start + chars
        assert sentencepiece_normalized(charsmap, text) == expected + text[done:], text
