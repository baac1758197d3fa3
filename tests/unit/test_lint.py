"""`hfcompat.lint` on small tokenizers with one planted defect each, a clean one, and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import tokenizers

import hfcompat
from hfcompat import cli
from hfcompat.formats.sentencepiece import schema as spm
from hfcompat.formats.sentencepiece.read import tokenizer_from_proto
from hfcompat.formats.tokenizer_json import tokenizer_from_json
from hfcompat.pipeline.bytelevel import BYTE_TO_CHAR
from hfcompat.tools.lint import Finding, has_errors, lint, merge_unreachable

CHARS = {"<unk>": 0, "a": 1, "b": 2, "c": 3, "ab": 4, "bc": 5, "abc": 6}
BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}


def pipeline(vocab: dict[str, int] | None = None, merges: list[str] | None = None, **parts: object) -> dict:
    """A tokenizer.json object: character BPE over a,b,c unless told otherwise."""
    model = {"type": "BPE", "vocab": dict(CHARS if vocab is None else vocab),
             "merges": ["a b", "b c", "ab c"] if merges is None else merges, "unk_token": "<unk>"}
    model.update(parts.pop("model", {}))
    return {"version": "1.0", "added_tokens": [], "normalizer": None, "pre_tokenizer": None,
            "post_processor": None, "decoder": None, **parts, "model": model}


def build(data: dict) -> hfcompat.Tokenizer:
    """The tokenizer of a tokenizer.json object, read as leniently as `tokenizers` reads it (a
    planted defect such as a shared id must load)."""
    return tokenizer_from_json(json.dumps(data), strict=False)


def byte_level(extra: dict[str, int] | None = None, merges: list[str] | None = None, drop: str = "",
               **parts: object) -> dict:
    """A byte-level BPE: the 256 byte chars (less `drop`), then `extra` tokens."""
    vocab = {char: byte for byte, char in BYTE_TO_CHAR.items() if char not in drop}
    vocab.update({token: 256 + i for i, token in enumerate(extra or {})})
    return pipeline(vocab, merges or [], **{"pre_tokenizer": BYTE_LEVEL, "decoder": BYTE_LEVEL,
                                            "model": {"unk_token": None}, **parts})


def only(findings: list[Finding], code: str) -> Finding:
    """The one finding with this code."""
    found = [finding for finding in findings if finding.code == code]
    assert len(found) == 1, [finding.code for finding in findings]
    return found[0]


def codes(findings: list[Finding]) -> set[str]:
    """The codes of the findings."""
    return {finding.code for finding in findings}


# ----- reachability ---------------------------------------------------------------------------


def test_a_token_the_merges_cannot_build_is_unreachable() -> None:
    """With "b c" before "a b", "abc" splits a|bc and "ab c" never applies; "zz" has no merge."""
    tokenizer = build(pipeline({**CHARS, "z": 7, "zz": 8}, ["b c", "a b", "ab c"]))
    finding = only(lint(tokenizer), "unreachable-token")
    assert finding.severity == "warning"
    assert (finding.tokens, finding.ids, finding.count) == (["abc", "zz"], [6, 8], 2)
    official = tokenizers.Tokenizer.from_str(json.dumps(pipeline({**CHARS, "z": 7, "zz": 8}, ["b c", "a b", "ab c"])))
    assert [t for t in ("abc", "zz") if [x.value for x in official.model.tokenize(t)] != [t]] == ["abc", "zz"]


def test_reachable_merges_give_no_finding() -> None:
    assert "unreachable-token" not in codes(lint(build(pipeline())))


def test_ignore_merges_makes_it_information() -> None:
    """The token is still produced when a whole pre-token equals it."""
    tokenizer = build(pipeline(merges=["b c", "a b", "ab c"], model={"ignore_merges": True}))
    finding = only(lint(tokenizer), "merge-unreachable")
    assert (finding.severity, finding.tokens) == ("info", ["abc"])
    assert tokenizer.encode("abc").tokens == ["abc"]


def test_decorated_tokens_are_read_at_every_place_of_a_word() -> None:
    """With a suffix, "ab</w>" ends a word and "ab" does not; with a prefix "##b" continues one."""
    suffixed = {"a": 0, "b": 1, "a</w>": 2, "b</w>": 3, "ab</w>": 4, "ab": 5, "ba</w>": 6}
    tokenizer = build(pipeline(suffixed, ["a b</w>", "a b"], model={"end_of_word_suffix": "</w>", "unk_token": None}))
    assert merge_unreachable(tokenizer) == [("ba</w>", 6)]
    prefixed = {"a": 0, "##a": 1, "b": 2, "##b": 3, "ab": 4, "##ab": 5, "ba": 6}
    tokenizer = build(pipeline(prefixed, ["a ##b", "##a ##b"],
                               model={"continuing_subword_prefix": "##", "unk_token": None}))
    assert merge_unreachable(tokenizer) == [("ba", 6)]


def test_byte_tokens_no_utf8_text_holds() -> None:
    """Bytes C0, C1, F5..FF and five continuation bytes in a row never occur in UTF-8."""
    five = "".join(BYTE_TO_CHAR[0x80] for _ in range(5))
    tokenizer = build(byte_level({five: 0, BYTE_TO_CHAR[0xE4] + BYTE_TO_CHAR[0xB8]: 1}))
    finding = only(lint(tokenizer), "unreachable-byte")
    assert finding.count == 14
    assert BYTE_TO_CHAR[0xC0] in finding.tokens and five not in finding.tokens[:10]
    assert finding.ids[:2] == [0xC0, 0xC1]


def test_byte_fallback_tokens_of_chars_in_the_vocabulary() -> None:
    """<0x61> is never emitted while "a" is a token; <0xC0> never at all."""
    vocab = {**CHARS, **{f"<0x{b:02X}>": 7 + b for b in range(256)}}
    finding = only(lint(build(pipeline(vocab, model={"byte_fallback": True}))), "unreachable-byte")
    assert finding.tokens[:5] == ["<0x61>", "<0x62>", "<0x63>", "<0xC0>", "<0xC1>"]
    assert finding.count == 3 + 13


# ----- added and special tokens ---------------------------------------------------------------


def added(content: str, token_id: int, **options: bool) -> dict:
    """A tokenizer.json added-token entry."""
    return {"id": token_id, "content": content, "single_word": False, "lstrip": False, "rstrip": False,
            "normalized": False, "special": False, **options}


def test_an_added_token_shadows_the_tokens_holding_it() -> None:
    tokenizer = build(pipeline(added_tokens=[added("bc", 5)]))
    finding = only(lint(tokenizer), "shadowed-token")
    assert (finding.tokens, finding.ids) == (["abc"], [6])
    assert "abc" not in tokenizer.encode("abc").tokens


def test_a_byte_level_added_token_shadows_by_its_bytes() -> None:
    """The added " hello" takes the text of the vocabulary token "Ġhello"."""
    tokenizer = build(byte_level({"Ġhello": 0, "hello": 1}, added_tokens=[added(" hello", 258)]))
    finding = only(lint(tokenizer), "shadowed-token")
    assert finding.tokens == ["Ġhello"]


def test_a_space_the_pre_tokenizer_adds_is_not_text() -> None:
    """With add_prefix_space, "hello" at the start of a text gives "Ġhello" without " hello" in it."""
    prefixed = {**BYTE_LEVEL, "add_prefix_space": True}
    tokenizer = build(byte_level({"Ġhello": 0}, added_tokens=[added(" hello", 257)], pre_tokenizer=prefixed))
    assert "shadowed-token" not in codes(lint(tokenizer))
    tokenizer = build(byte_level({"Ġhello": 0}, added_tokens=[added("hello", 257)], pre_tokenizer=prefixed))
    assert only(lint(tokenizer), "shadowed-token").tokens == ["Ġhello"]


def test_single_word_tokens_and_normalizers_are_not_judged() -> None:
    """A single-word match can be rejected, and a raw-text token may miss normalized text."""
    assert "shadowed-token" not in codes(lint(build(pipeline(added_tokens=[added("bc", 5, single_word=True)]))))
    lowercase = {"type": "Lowercase"}
    assert "shadowed-token" not in codes(lint(build(pipeline(added_tokens=[added("bc", 5)], normalizer=lowercase))))


def template(*specials: tuple[str, int]) -> dict:
    """A TemplateProcessing putting the specials around the sequence."""
    return {"type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": token, "type_id": 0}} for token, _ in specials]
            + [{"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {token: {"id": token, "ids": [i], "tokens": [token]} for token, i in specials}}


def test_post_processor_specials() -> None:
    """[CLS] is nowhere, "a" is inserted under the id of "b", and <unk> is not special."""
    tokenizer = build(pipeline(post_processor=template(("[CLS]", 9), ("a", 2), ("<unk>", 0))))
    findings = lint(tokenizer)
    assert only(findings, "special-token-missing").tokens == ["[CLS]"]
    assert only(findings, "special-token-id-mismatch").tokens == ["a"]
    assert only(findings, "special-token-not-special").tokens == ["<unk>"]
    marked = build(pipeline(post_processor=template(("<unk>", 0)), added_tokens=[added("<unk>", 0, special=True)]))
    assert not codes(lint(marked)) & {"special-token-missing", "special-token-not-special"}


def test_missing_unk_token_is_an_error() -> None:
    vocab = {token: i for token, i in CHARS.items() if token != "<unk>"}
    assert only(lint(build(pipeline(vocab))), "unk-token-missing").severity == "error"


def test_written_added_token_ids_that_loading_changes(tmp_path: Path) -> None:
    """tokenizers numbers "<new>" 7 (after the vocabulary), whatever the file says."""
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(pipeline(added_tokens=[added("<new>", 100, special=True)])), encoding="utf-8")
    finding = only(lint(path), "added-token-id-mismatch")
    assert (finding.tokens, finding.ids, finding.severity) == (["<new>"], [100], "error")
    assert tokenizers.Tokenizer.from_file(str(path)).token_to_id("<new>") == 7


# ----- coverage, ids, components --------------------------------------------------------------


def test_byte_level_gaps() -> None:
    """A missing "A" loses text (error); a missing C0 loses nothing (info)."""
    assert only(lint(build(byte_level(drop="A"))), "byte-level-gap").severity == "error"
    assert only(lint(build(byte_level(drop=BYTE_TO_CHAR[0xC0]))), "byte-level-gap").severity == "info"


def test_byte_fallback_gaps() -> None:
    vocab = {**CHARS, **{f"<0x{b:02X}>": 7 + b for b in range(0x80)}}
    finding = only(lint(build(pipeline(vocab, model={"byte_fallback": True}))), "byte-fallback-gap")
    assert (finding.severity, finding.count, finding.tokens[0]) == ("error", 128, "<0x80>")


def test_duplicate_ids_and_gaps() -> None:
    findings = lint(build(pipeline({"<unk>": 0, "a": 1, "b": 1, "c": 4}, [])))
    assert only(findings, "duplicate-ids").tokens == ["a", "b"]
    gaps = only(findings, "id-gaps")
    assert (gaps.count, gaps.details) == (2, ["ids 2-3"])


def test_possessive_interval_in_a_split_pattern() -> None:
    """cl100k's \\p{N}{1,3}+ as tiktoken writes it; (?>...) is what Oniguruma needs."""
    def split(pattern: str) -> dict:
        return {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}, BYTE_LEVEL]}

    finding = only(lint(build(byte_level(pre_tokenizer=split(r"\p{N}{1,3}+| ?\p{L}+")))), "regex-engine-difference")
    assert "`{n,m}+`" in finding.details[0]
    assert "regex-engine-difference" not in codes(lint(build(byte_level(pre_tokenizer=split(r"(?>\p{N}{1,3})")))))


def test_normalizer_idempotence() -> None:
    prepend = build(pipeline(normalizer={"type": "Prepend", "prepend": "▁"}))
    finding = only(lint(prepend), "normalizer-not-idempotent")
    assert finding.severity == "info"
    assert "'Hello  World' -> '▁Hello  World' -> '▁▁Hello  World'" in finding.details
    assert "normalizer-not-idempotent" not in codes(lint(build(pipeline(normalizer={"type": "NFKC"}))))


def test_sentencepiece_model_with_unused_pieces() -> None:
    """tokenizer.json's BPE would emit the UNUSED piece that sentencepiece splits back."""
    proto = spm.ModelProto()
    proto.pieces.add(piece="<unk>", score=0.0, type=spm.UNKNOWN)
    for score, piece in enumerate(["▁", "a", "b", "ab"]):
        proto.pieces.add(piece=piece, score=-float(score), type=spm.UNUSED if piece == "ab" else spm.NORMAL)
    proto.trainer_spec.model_type = spm.BPE
    finding = only(lint(tokenizer_from_proto(proto)), "sentencepiece-json-inexact")
    assert "UNUSED" in finding.details[0]


def test_a_clean_tokenizer_has_no_errors() -> None:
    trained = hfcompat.train(iter(["hello world", "low lower lowest", "new newer newest"] * 20),
                             model="bytelevel_bpe", vocab_size=300, show_progress=False)
    findings = lint(trained)
    assert not has_errors(findings)
    assert codes(findings) <= {"unreachable-byte"}


# ----- the command ----------------------------------------------------------------------------


def test_cli_exit_codes_and_json(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    clean, broken = tmp_path / "clean.json", tmp_path / "broken.json"
    clean.write_text(json.dumps(pipeline()), encoding="utf-8")
    broken.write_text(json.dumps(pipeline({**CHARS, "d": 6})), encoding="utf-8")
    assert cli.run(["lint", str(clean)]) == 0
    assert capsys.readouterr().out.startswith(f"{clean}: 0 errors, 0 warnings")
    assert cli.run(["lint", str(clean), str(broken), "--json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["path"] for line in lines] == [str(clean), str(broken)]
    assert lines[1]["counts"]["error"] == 1
    finding = lines[1]["findings"][0]
    assert set(finding) == {"code", "severity", "message", "why", "count", "tokens", "ids", "details"}
    assert (finding["code"], finding["tokens"]) == ("duplicate-ids", ["abc", "d"])


def test_the_command_runs_as_a_program(tmp_path: Path) -> None:
    """`python -m hfcompat lint`: a file that does not load is a usage error (2), as for every command."""
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(pipeline({**CHARS, "d": 6})), encoding="utf-8")
    run = [sys.executable, "-m", "hfcompat", "lint"]
    result = subprocess.run([*run, str(broken)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1 and result.stdout.startswith(f"{broken}: 1 error")
    result = subprocess.run([*run, str(tmp_path / "missing.json")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 3 and result.stderr.startswith("hfcompat: error: ")
