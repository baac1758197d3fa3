"""charsmap_builder: built charsmaps parse back to their rules, and sentencepiece runs them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hfcompat.normalizers.charsmap import CharsMap, charsmap_rules, sentencepiece_normalize
from hfcompat.normalizers.charsmap_builder import build_charsmap
from hfcompat.errors import FormatError
from hfcompat.normalizers.normalization_rules import named_rules, precompiled_charsmap
from hfcompat.pipeline.normalized import NormalizedString

CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\0")
RULES = st.dictionaries(st.text(CHARS, min_size=1, max_size=3), st.text(CHARS, max_size=3),
                        min_size=1, max_size=40)


def longest_match(rules: dict[str, str], text: str) -> str:
    """The rules applied as sentencepiece applies them: the longest key at each position."""
    longest = max(map(len, rules))
    out, i = [], 0
    while i < len(text):
        size = next((n for n in range(min(longest, len(text) - i), 0, -1) if text[i:i + n] in rules), 0)
        out.append(rules[text[i:i + size]] if size else text[i])
        i += size or 1
    return "".join(out)


@settings(max_examples=60, deadline=None)
@given(RULES, st.text(CHARS, max_size=20))
def test_built_charsmap_parses_back_and_normalizes_as_its_rules(rules: dict[str, str], tail: str) -> None:
    """Every rule comes back from the blob, and longest-match normalization follows them."""
    charsmap = CharsMap.from_bytes(build_charsmap(rules))
    assert charsmap_rules(charsmap) == rules
    text = "".join(rules) + tail
    ns = NormalizedString(text)
    sentencepiece_normalize(charsmap, ns)
    assert ns.normalized == longest_match(rules, text)


@settings(max_examples=25, deadline=None)
@given(RULES, st.text(CHARS, max_size=20))
def test_sentencepiece_runs_a_built_charsmap(rules: dict[str, str], tail: str) -> None:
    """sentencepiece's own darts-clone reader accepts the blob and normalizes by its rules."""
    spm = pytest.importorskip("sentencepiece")
    from hfcompat.formats.sentencepiece import schema as model
    proto = model.ModelProto()
    proto.pieces.add(piece="<unk>", score=0.0, type=model.UNKNOWN)
    proto.pieces.add(piece="a", score=-1.0, type=model.NORMAL)
    spec = proto.normalizer_spec
    spec.precompiled_charsmap = build_charsmap(rules)
    spec.add_dummy_prefix = spec.remove_extra_whitespaces = spec.escape_whitespaces = False
    processor = spm.SentencePieceProcessor(model_proto=proto.SerializeToString())
    text = "".join(rules) + tail
    assert processor.normalize(text) == longest_match(rules, text)


def test_no_rules_is_the_empty_blob() -> None:
    """No rules: the empty charsmap, which means identity."""
    assert build_charsmap({}) == b""


@pytest.mark.parametrize("rules", [{"": "x"}, {"a\0": "x"}, {"a": "x\0"}, {"\ud800": "x"}])
def test_bad_rules_raise_format_error(rules: dict[str, str]) -> None:
    """Empty keys, NULs and lone surrogates cannot be stored: FormatError names the field."""
    with pytest.raises(FormatError, match="precompiled_charsmap"):
        build_charsmap(rules)


def test_nmt_nfkc_rules() -> None:
    """nmt_nfkc: NFKC of chars and of decomposed sequences, NMT spaces and removals, "～" kept."""
    rules = named_rules("nmt_nfkc")
    assert rules["ｗ"] == "w" and rules["①"] == "1" and rules["ﬁ"] == "fi"
    assert rules["e\u0301"] == "é" and rules["\u1100\u1161"] == "가"
    assert rules["\t"] == " " and rules["\u200b"] == " " and rules["\u2581"] == " "
    assert rules["\x01"] == "" and rules["\x7f"] == ""
    assert "～" not in rules and "\u200d" not in rules
    assert CharsMap.from_bytes(precompiled_charsmap("nmt_nfkc")).longest_match("ｗ".encode()) == ("w", 3)


def test_case_folding_rules() -> None:
    """nmt_nfkc_cf folds case after NFKC (simple folding: "ẞ" to "ß", "ß" kept)."""
    rules = named_rules("nmt_nfkc_cf")
    assert rules["A"] == "a" and rules["Ｗ"] == "w" and rules["ẞ"] == "ß" and "ß" not in rules


def test_named_charsmaps_are_kept_in_the_cache_directory(tmp_path, monkeypatch) -> None:
    """A named charsmap is built once, written to the cache directory, then read from it."""
    from hfcompat.normalizers import normalization_rules

    built = []
    monkeypatch.setenv("HFCOMPAT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(normalization_rules, "build_charsmap", lambda rules: built.append(1) or b"built")
    monkeypatch.setattr(normalization_rules, "named_rules", lambda name: {})
    assert normalization_rules._cached_charsmap("nmt_nfkc") == b"built"
    assert normalization_rules._cached_charsmap("nmt_nfkc") == b"built"
    assert len(built) == 1 and [path.name[:18] for path in tmp_path.iterdir()] == ["charsmap-nmt_nfkc-"]


def test_a_damaged_cached_charsmap_is_built_again(tmp_path, monkeypatch) -> None:
    """A cache file whose checksum fails (cut short, overwritten) is never used as a charsmap."""
    from hfcompat.normalizers import normalization_rules

    monkeypatch.setenv("HFCOMPAT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(normalization_rules, "build_charsmap", lambda rules: b"built")
    monkeypatch.setattr(normalization_rules, "named_rules", lambda name: {})
    assert normalization_rules._cached_charsmap("nfkc") == b"built"
    (path,) = tmp_path.iterdir()
    for damaged in (path.read_bytes()[:-1], b"other" + path.read_bytes()[5:], b""):
        path.write_bytes(damaged)
        monkeypatch.setattr(normalization_rules, "build_charsmap", lambda rules: b"rebuilt")
        assert normalization_rules._cached_charsmap("nfkc") == b"rebuilt"
        monkeypatch.setattr(normalization_rules, "build_charsmap", lambda rules: b"built")
