"""hfcompat.tools.evaluate: script classes, hand-computed measures, and token counts against the oracles."""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hfcompat.cli import run
from hfcompat.tools.evaluate import evaluate, token_shares
from hfcompat.models.bpe import BPE
from hfcompat.models.wordpiece import WordPiece
from hfcompat.pre_tokenizers import Whitespace
from hfcompat.tools.scripts import NEUTRAL, char_classes, is_code_line, words
from hfcompat.tokenizer import Tokenizer
from tests.conftest import mixed_sample, shared_file

# ------------------------------------------------------------------ script classes


@pytest.mark.parametrize("text, expected", [
    ("Hi, 世界", ["latin", "latin", NEUTRAL, NEUTRAL, "han", "han"]),
    ("かナー", ["kana", "kana", "kana"]),
    ("한 Я", ["hangul", NEUTRAL, "cyrillic"]),
    ("سلام", ["arabic"] * 4),
    ("नमस्ते", ["devanagari"] * 6),  # the vowel signs and virama join their letter
    ("e\u0301!", ["latin", "latin", NEUTRAL]),
    ("a1🤗👍🏽", ["latin", "digits", "emoji", "emoji", "emoji"]),
    ("αβ", ["other", "other"]),
    ("x = f(a[i]);", ["code", NEUTRAL, "code", NEUTRAL, *["code"] * 8]),
])
def test_char_classes(text: str, expected: list[str]) -> None:
    """Each character gets the class its rule gives."""
    assert char_classes(text) == expected


@pytest.mark.parametrize("line, code", [
    ("x = f(a[i]);", True),
    ("    return {k: v for k, v in items}", True),
    ("def main():", True),
    ("#include <stdio.h>", True),
    ("I (we) went home, and that was that.", False),
    ("for the record: nothing happened.", False),
    ("The price was $5 + tax.", False),
    ("", False),
])
def test_code_lines(line: str, code: bool) -> None:
    """Code symbols (3+ and 10%+ of the visible chars) or a keyword line make a code line."""
    assert is_code_line(line) is code


def test_code_is_decided_per_line() -> None:
    """A multi-line text mixes code lines and prose lines."""
    assert char_classes("a;\nx = y[0];\n") == ["latin", NEUTRAL, NEUTRAL, "code", NEUTRAL, "code",
                                                   NEUTRAL, *["code"] * 5, NEUTRAL]


def test_words_are_runs_of_one_class() -> None:
    """abc123 is two words; spaces and punctuation separate words."""
    assert words(char_classes("abc123 东京, ok")) == [(0, 3, "latin"), (3, 6, "digits"),
                                                      (7, 9, "han"), (11, 13, "latin")]


def test_token_shares() -> None:
    """A token is shared among the non-neutral characters it covers; spaces alone are space_punct."""
    classes = ["latin", "latin", NEUTRAL, "digits"]
    assert token_shares(classes, 0, 4) == {"latin": 2 / 3, "digits": 1 / 3}
    assert token_shares(classes, 2, 3) == {NEUTRAL: 1.0}


# ------------------------------------------------------------------ hand-computed measures


def wordpiece_tokenizer() -> Tokenizer:
    """A tiny WordPiece pipeline: hello -> hel ##lo, 世界 -> 世 ##界, ? -> [UNK]."""
    vocab = {"[UNK]": 0, "hel": 1, "##lo": 2, "world": 3, "世": 4, "##界": 5, "<s>": 6, "<": 7, "##s": 8}
    tokenizer = Tokenizer(WordPiece(vocab), pre_tokenizer=Whitespace())
    return tokenizer


def test_measures_by_hand() -> None:
    """'hello world' and '世界 ?': 6 tokens, counted overall and per script."""
    report = evaluate({"wp": wordpiece_tokenizer()}, ["hello world", "世界 ?"]).to_dict()["tokenizers"][0]
    assert (report["tokens"], report["chars"], report["bytes"], report["words"]) == (6, 15, 19, 3)
    assert report["tokens_per_char"] == round(6 / 15, 6)
    assert report["bytes_per_token"] == round(19 / 6, 6)
    assert report["fertility"] == 2.0
    assert report["split_share"] == round(2 / 3, 6)  # hello and 世界 are split, world is not
    assert report["unk_rate"] == round(1 / 6, 6)
    assert report["byte_fallback_rate"] == 0.0
    assert report["vocab_used"] == round(6 / 9, 6)
    latin, han, punct = (report["by_script"][name] for name in ("latin", "han", NEUTRAL))
    assert (latin["tokens"], latin["chars"], latin["words"], latin["fertility"]) == (3, 10, 2, 1.5)
    assert (han["tokens"], han["chars"], han["bytes"], han["split_share"]) == (2, 2, 6, 1.0)
    assert (punct["tokens"], punct["chars"]) == (1, 3)  # [UNK] for "?"; the two spaces and "?"
    assert set(report) >= {"name", "tokens", "chars", "bytes", "tokens_per_char", "bytes_per_token",
                           "fertility", "unk_rate", "byte_fallback_rate", "vocab_used", "by_script"}


def test_byte_fallback_rate_by_hand() -> None:
    """'a世' with only 'a' and the three bytes of 世: 4 tokens, 3 of them byte fallback, all Han."""
    vocab = {"a": 0, "<0xE4>": 1, "<0xB8>": 2, "<0x96>": 3}
    tokenizer = Tokenizer(BPE(vocab, [], byte_fallback=True))
    report = evaluate([tokenizer], ["a世"]).to_dict()["tokenizers"][0]
    assert report["tokens"] == 4 and report["byte_fallback_rate"] == 0.75
    assert report["by_script"]["han"]["tokens"] == 3
    assert report["by_script"]["han"]["tokens_per_char"] == 3.0


def test_special_token_strings_are_plain_text() -> None:
    """'<s>' in the corpus is encoded as text, and the tokenizer's setting is restored."""
    tokenizer = wordpiece_tokenizer()
    tokenizer.add_special_tokens(["<s>"])
    tokenizer.enable_truncation(2)
    report = evaluate([tokenizer], ["<s>"]).to_dict()["tokenizers"][0]
    assert report["tokens"] == 3  # "<", "s" (a word of its own), ">" as [UNK]
    assert tokenizer.encode_special_tokens is False
    assert tokenizer.truncation is not None
    assert tokenizer.encode("<s>").ids == [6]


# ------------------------------------------------------------------ against the official libraries

REFS = ["gpt2/tokenizer.json", "t5/tokenizer.json", "phi-3-mini/tokenizer.json", "roberta-base/tokenizer.json"]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    """40 lines of each corpus and the fixture texts, plus special-token look-alikes."""
    return mixed_sample(40) + ["<|endoftext|> and <s></s><unk> are text here", "<pad>[CLS]"]


@pytest.mark.conformance
@pytest.mark.parametrize("ref", REFS)
def test_counts_match_tokenizers(ref: str, texts: list[str]) -> None:
    """tokens, unknowns, byte-fallback tokens and distinct ids equal what `tokenizers` gives."""
    import tokenizers

    import hfcompat
    path = shared_file(f"refs/{ref}")
    theirs = tokenizers.Tokenizer.from_file(str(path))
    theirs.encode_special_tokens = True
    theirs.no_truncation()
    theirs.no_padding()
    encodings = [theirs.encode(text, add_special_tokens=False) for text in texts if text]
    ids = [i for e in encodings for i in e.ids]
    ours = hfcompat.load(path)
    report = evaluate({"x": ours}, texts, measure_memory=False).to_dict()["tokenizers"][0]
    assert report["tokens"] == len(ids)
    unk_token = json.loads(path.read_text("utf-8"))["model"].get("unk_token")
    unk_id = theirs.token_to_id(unk_token) if isinstance(unk_token, str) else None
    if ref.startswith("t5"):
        unk_id = 2
    assert report["unk_rate"] == round(Counter(ids)[unk_id] / len(ids), 6)
    byte_tokens = sum(1 for e in encodings for t in e.tokens if len(t) == 6 and t.startswith("<0x"))
    expected_fallback = byte_tokens if ref.startswith("phi") else 0
    assert report["byte_fallback_rate"] == round(expected_fallback / len(ids), 6)
    assert report["vocab_used"] == round(len(set(ids)) / theirs.get_vocab_size(), 6)
    assert sum(s["tokens"] for s in report["by_script"].values()) == pytest.approx(len(ids))


@pytest.mark.conformance
def test_counts_match_tiktoken(texts: list[str]) -> None:
    """GPT-2's tokenizer.json counts as many tokens as tiktoken's r50k_base, specials as text."""
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe
    from tiktoken_ext.openai_public import r50k_pat_str

    import hfcompat
    ranks = load_tiktoken_bpe(str(shared_file("refs/tiktoken/r50k_base.tiktoken")))
    encoding = tiktoken.Encoding("r50k_base", pat_str=r50k_pat_str, mergeable_ranks=ranks,
                                 special_tokens={"<|endoftext|>": 50256})
    expected = sum(len(encoding.encode(text, disallowed_special=())) for text in texts if text)
    ours = hfcompat.load(shared_file("refs/gpt2/tokenizer.json"))
    report = evaluate([ours], texts, measure_memory=False).to_dict()["tokenizers"][0]
    assert report["tokens"] == expected


# ------------------------------------------------------------------ command line and page


def test_cli_json_and_html(tmp_path, capsys) -> None:
    """`hfcompat evaluate --json` prints one object; --html writes a page with one chart per measure."""
    tokenizer_path = tmp_path / "wp" / "tokenizer.json"
    tokenizer_path.parent.mkdir()
    wordpiece_tokenizer().save(str(tokenizer_path))
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("hello world\n\n世界 ?\n", "utf-8")
    page = tmp_path / "report.html"
    assert run(["evaluate", str(tokenizer_path), "--corpus", str(corpus), "--json", "--html", str(page)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [t["name"] for t in data["tokenizers"]] == ["wp"]
    assert data["tokenizers"][0]["tokens"] == 6
    html = page.read_text("utf-8")
    assert html.count("<svg") == 3 and "http" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")


@pytest.mark.conformance
@given(st.lists(st.text(max_size=40), min_size=1, max_size=4))
def test_random_text_totals(texts: list[str]) -> None:
    """On random Unicode: GPT-2's token total is tokenizers' and the per-script parts add up."""
    path = shared_file("refs/gpt2/tokenizer.json")
    ours, theirs = _gpt2_pair(str(path))
    expected = sum(len(theirs.encode(text, add_special_tokens=False).ids) for text in texts if text)
    report = evaluate([ours], texts, measure_memory=False).to_dict()["tokenizers"][0]
    assert report["tokens"] == expected
    parts = report["by_script"].values()
    assert sum(p["tokens"] for p in parts) == pytest.approx(expected)
    assert sum(p["chars"] for p in parts) == report["chars"] == sum(len(t) for t in texts)
    assert sum(p["bytes"] for p in parts) == report["bytes"]


@lru_cache(maxsize=None)
def _gpt2_pair(path: str) -> tuple[Any, Any]:
    """hfcompat's and tokenizers' GPT-2, whole inputs (no saved truncation)."""
    import tokenizers

    import hfcompat
    ours, theirs = hfcompat.load(path), tokenizers.Tokenizer.from_file(path)
    theirs.no_truncation()
    theirs.encode_special_tokens = True
    return ours, theirs


def test_cli_passes_load_options(tmp_path, monkeypatch, capsys) -> None:
    """--encoding and --pattern reach hfcompat.load (the tiktoken options), for every TOK."""
    import sys
    seen = []

    def fake_load(path, **options):
        seen.append((path, options))
        return wordpiece_tokenizer()

    monkeypatch.setattr(sys.modules["hfcompat.cli.options"], "load", fake_load)  # where the CLI calls it
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("hello world\n", "utf-8")
    assert run(["evaluate", "a.tiktoken", "b.tiktoken", "--encoding", "cl100k_base", "--pattern", r"\w+",
                "--corpus", str(corpus), "--json"]) == 0
    assert seen == [("a.tiktoken", {"encoding": "cl100k_base", "pattern": r"\w+"}),
                    ("b.tiktoken", {"encoding": "cl100k_base", "pattern": r"\w+"})]
    assert [t["name"] for t in json.loads(capsys.readouterr().out)["tokenizers"]] == ["a.tiktoken", "b.tiktoken"]


def test_cli_errors(tmp_path, capsys) -> None:
    """A corpus that is not UTF-8, or absent, is one error line with exit code 3 (bad input)."""
    tokenizer_path = tmp_path / "tokenizer.json"
    wordpiece_tokenizer().save(str(tokenizer_path))
    corpus = tmp_path / "latin1.txt"
    corpus.write_bytes("café\n".encode("latin-1"))
    assert run(["evaluate", str(tokenizer_path), "--corpus", str(corpus)]) == 3
    assert "not UTF-8" in capsys.readouterr().err
    assert run(["evaluate", str(tokenizer_path), "--corpus", str(tmp_path / "absent.txt")]) == 3
    assert "absent.txt" in capsys.readouterr().err


def test_cli_interrupted(tmp_path, monkeypatch, capsys) -> None:
    """Ctrl-C during the evaluation: exit code 130, a one-line message and no page written."""
    import sys
    module = sys.modules["hfcompat.cli.explore"]  # where the CLI calls evaluate

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "evaluate", interrupted)
    tokenizer_path = tmp_path / "tokenizer.json"
    wordpiece_tokenizer().save(str(tokenizer_path))
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("hello\n", "utf-8")
    page = tmp_path / "report.html"
    assert run(["evaluate", str(tokenizer_path), "--corpus", str(corpus), "--html", str(page)]) == 130
    assert "interrupted" in capsys.readouterr().err and not page.exists()
