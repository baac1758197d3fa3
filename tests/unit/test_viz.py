"""hfcompat.tools.viz without a browser: the page's token elements, self-containment, the terminal view."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from hfcompat.cli import run, tokens
from hfcompat.models.bpe import BPE
from hfcompat.models.wordpiece import WordPiece
from hfcompat.pre_tokenizers import Whitespace
from hfcompat.tokenizer import Tokenizer
from hfcompat.tools.viz import ansi, core_span, page, pieces


class TokenSpans(HTMLParser):
    """Collects the attributes of every element with class "tok", per column."""

    def __init__(self) -> None:
        super().__init__()
        self.columns: dict[str, list[dict[str, str]]] = {}
        self.current = ""
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        data = {k: v or "" for k, v in attrs}
        if tag == "section":
            self.current = data["data-name"]
            self.columns[self.current] = []
        if "tok" in data.get("class", "").split():
            self.columns[self.current].append(data)
        if tag in ("script", "img", "link") and (data.get("src") or data.get("href")):
            self.external.append(f"{tag} {data}")


def tiny_tokenizers() -> dict[str, Tokenizer]:
    """Two tokenizers that split 'hello world 世' differently."""
    wordpiece = Tokenizer(WordPiece({"[UNK]": 0, "hel": 1, "##lo": 2, "world": 3, "世": 4}),
                          pre_tokenizer=Whitespace())
    words = ["he", "hel", "hell", "hello", "wo", "wor", "worl", "world", "<0xE4>", "<0xB8>", "<0x96>"]
    vocab = {token: i for i, token in enumerate([*" dehlorw", *words])}
    merges = [("h", "e"), ("he", "l"), ("hel", "l"), ("hell", "o"),
              ("w", "o"), ("wo", "r"), ("wor", "l"), ("worl", "d")]
    bpe = Tokenizer(BPE(vocab, merges, byte_fallback=True))
    return {"wordpiece": wordpiece, "bpe": bpe}


TEXT = "hello world 世"


def test_one_element_per_token_in_order() -> None:
    """Each column has one .tok element per token, with the ids in order and ids in the titles."""
    tokenizers = tiny_tokenizers()
    parser = TokenSpans()
    parser.feed(page(tokenizers, TEXT))
    for name, tokenizer in tokenizers.items():
        ids = tokenizer.encode(TEXT, add_special_tokens=False).ids
        spans = parser.columns[name]
        assert [int(s["data-id"]) for s in spans] == ids
        assert all(s["title"].startswith(f"id {s['data-id']} |") for s in spans)
    assert parser.external == []


def test_differences_and_byte_fallback_are_marked() -> None:
    """'hello' is one BPE token but hel+##lo in WordPiece; 世 is three byte tokens in BPE."""
    parser = TokenSpans()
    parser.feed(page(tiny_tokenizers(), TEXT))
    bpe = {s["data-token"]: s["class"].split() for s in parser.columns["bpe"]}
    wordpiece = {s["data-token"]: s["class"].split() for s in parser.columns["wordpiece"]}
    assert "diff" in bpe["hello"] and "diff" in wordpiece["hel"] and "diff" in wordpiece["##lo"]
    assert "diff" not in wordpiece["world"] and "diff" not in bpe["world"]
    assert "diff" not in bpe[" "]  # whitespace alone is never a difference
    assert "byte" in bpe["<0xE4>"] and "shared" in bpe["<0xB8>"]
    assert [s["data-bytes"] for s in parser.columns["bpe"][-3:]] == ["e4", "b8", "96"]


def test_pieces_cover_the_text() -> None:
    """Drawn text pieces (gaps and tokens) put back together give the original text."""
    tokenizer = tiny_tokenizers()["wordpiece"]
    drawn = pieces(TEXT, tokenizer.encode(TEXT))
    assert "".join(p.text for p in drawn if p.kind in ("text", "gap")) == TEXT
    assert [p.kind for p in drawn][:3] == ["text", "text", "gap"]


def test_core_span() -> None:
    """Whitespace at both ends of a span is ignored when comparing splits."""
    assert core_span(" ab  ", 0, 5) == (1, 3)
    assert core_span("   ", 0, 3) == (3, 3)


def test_ansi_view() -> None:
    """One coloured run per token, spaces drawn as a middle dot."""
    tokenizer = tiny_tokenizers()["bpe"]
    shown = ansi(TEXT, tokenizer.encode(TEXT))
    assert shown.count("\x1b[30;") == len(tokenizer.encode(TEXT).ids)
    assert "\u00b7" in shown and "hello" in shown


def test_cli_viz(tmp_path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`hfcompat viz A B --text ... -o page.html` writes the page; `encode --show` colours tokens on a terminal
    (and draws "|" bars elsewhere: tests/unit/test_cli_conventions.py)."""
    paths = []
    for name, tokenizer in tiny_tokenizers().items():
        path = tmp_path / name / "tokenizer.json"
        path.parent.mkdir()
        tokenizer.save(str(path))
        paths.append(str(path))
    out = tmp_path / "page.html"
    assert run(["viz", *paths, "--text", TEXT, "-o", str(out)]) == 0
    parser = TokenSpans()
    parser.feed(out.read_text("utf-8"))
    assert list(parser.columns) == ["wordpiece", "bpe"]
    monkeypatch.setattr(tokens, "wants_colour", lambda stream: True)  # stdout as a terminal
    assert run(["encode", paths[1], TEXT, "--show"]) == 0
    assert "\x1b[30;44mhello" in capsys.readouterr().out
