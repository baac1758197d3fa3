"""See tokens: a self-contained HTML page (several tokenizers side by side) and a terminal view.

Each token is drawn over the part of the original text its offsets cover. Text no token covers
(spaces BERT drops) is drawn between tokens, greyed. A token whose span was already drawn (byte
fallback `<0xHH>` pieces, or the byte-level pieces of one character) shows its own string instead.
Where tokenizers split differently, a token is marked `diff` when another tokenizer does not have
the same number of tokens over exactly its characters (whitespace at the ends of spans aside; a
token of whitespace only is never marked). So 東 as three byte tokens differs from 東 as one.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from html import escape
from typing import Any, Mapping

import regex

from ..pipeline.bytelevel import chars_to_bytes

BYTE_TOKEN = regex.compile(r"<0x([0-9A-Fa-f]{2})>")
VISIBLE_WHITESPACE = {" ": "\u00b7", "\n": "\u21b5\n", "\t": "\u2192", "\r": "\u240d"}
COLOURS = 6  # token colours cycle so that neighbours always differ
ANSI_BACKGROUNDS = [44, 42, 45, 43, 46, 41]


@dataclass
class Piece:
    """What to draw: a token (index >= 0) or uncovered text (index -1)."""

    text: str
    index: int
    token_id: int | None = None
    token: str = ""
    start: int = 0
    end: int = 0
    # "text"; "shared": span drawn already; "empty": no characters (post-processor tokens,
    # trimmed spaces); "gap": text no token covers
    kind: str = "text"
    byte_fallback: bool = False
    data: bytes = b""


def pieces(text: str, encoding: Any, byte_level: bool = False) -> list[Piece]:
    """The pieces to draw for one encoding of `text`, in token order."""
    drawn = 0
    result: list[Piece] = []
    for index, (token_id, token, (start, end)) in enumerate(zip(encoding.ids, encoding.tokens, encoding.offsets)):
        if start > drawn:
            result.append(Piece(text[drawn:start], -1, kind="gap", start=drawn, end=start))
        if start == end:
            kind, shown = "empty", token
        elif end <= drawn:
            kind, shown = "shared", token
            if byte_level and chars_to_bytes(token) is not None:
                shown = "\u27e8" + chars_to_bytes(token).hex(" ").upper() + "\u27e9"
        else:
            kind, shown = "text", text[max(start, drawn):end]
        drawn = max(drawn, end)
        fallback = BYTE_TOKEN.fullmatch(token)
        result.append(Piece(shown, index, token_id, token, start, end, kind, bool(fallback),
                            _token_bytes(token, text[start:end], fallback, byte_level)))
    if drawn < len(text):
        result.append(Piece(text[drawn:], -1, kind="gap", start=drawn, end=len(text)))
    return result


def _token_bytes(token: str, covered: str, fallback: Any, byte_level: bool) -> bytes:
    """The bytes a token stands for: its <0xHH> byte, its byte-level chars, or the text it covers."""
    if fallback:
        return bytes([int(fallback.group(1), 16)])
    if byte_level:
        data = chars_to_bytes(token)
        if data is not None:
            return data
    return covered.encode("utf-8", "surrogatepass")


def core_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without the whitespace at its ends (so " world" and "world" split alike)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def is_byte_level(tokenizer: Any) -> bool:
    """True when the tokenizer's tokens are GPT-2 byte-level strings (its decoder says so)."""
    decoder = tokenizer.decoder
    return decoder is not None and "ByteLevel" in json.dumps(decoder.to_dict())


def visible(text: str) -> str:
    """Whitespace made visible (a newline still breaks the line)."""
    return "".join(VISIBLE_WHITESPACE.get(char, char) for char in text)


def encode_for_view(tokenizer: Any, text: str, add_special_tokens: bool = False) -> Any:
    """The whole encoding of `text` (saved truncation and padding turned off for the view)."""
    saved = tokenizer.truncation, tokenizer.padding
    tokenizer.truncation = tokenizer.padding = None
    try:
        return tokenizer.encode(text, add_special_tokens=add_special_tokens)
    finally:
        tokenizer.truncation, tokenizer.padding = saved


# ------------------------------------------------------------------ terminal


def ansi(text: str, encoding: Any, byte_level: bool = False) -> str:
    """The tokens of `text` on coloured backgrounds (ANSI escapes), whitespace visible."""
    out = []
    for piece in pieces(text, encoding, byte_level):
        shown = visible(piece.text)
        if piece.index < 0:
            out.append(f"\x1b[2m{shown}\x1b[0m")
        else:
            colour = ANSI_BACKGROUNDS[piece.index % len(ANSI_BACKGROUNDS)]
            out.append(f"\x1b[30;{colour}m{shown}\x1b[0m")
    return "".join(out)


def plain(text: str, encoding: Any, byte_level: bool = False) -> str:
    """The tokens of `text` between "|" bars, whitespace visible: the terminal view without colour."""
    return "|".join(visible(piece.text) for piece in pieces(text, encoding, byte_level))


# ------------------------------------------------------------------ HTML


def page(tokenizers: Mapping[str, Any], text: str, add_special_tokens: bool = False) -> str:
    """One self-contained HTML page showing `text` tokenized by each tokenizer, side by side."""
    views = {name: (encode_for_view(tok, text, add_special_tokens), is_byte_level(tok))
             for name, tok in tokenizers.items()}
    spans = {name: Counter(core_span(text, *o) for o in encoding.offsets) for name, (encoding, _) in views.items()}
    columns = []
    for name, (encoding, byte_level) in views.items():
        others = [s for other, s in spans.items() if other != name]
        columns.append(_column(name, text, encoding, byte_level, spans[name], others))
    return PAGE.format(style=STYLE, script=SCRIPT, columns="".join(columns),
                       chars=len(text), size=len(text.encode("utf-8", "surrogatepass")))


def _column(name: str, text: str, encoding: Any, byte_level: bool, own: Counter,
            others: list[Counter]) -> str:
    """One tokenizer's header, counts and token spans."""
    parts = []
    differing = 0
    for piece in pieces(text, encoding, byte_level):
        if piece.index < 0:
            parts.append(f'<span class="gap">{escape(visible(piece.text))}</span>')
            continue
        core = core_span(text, piece.start, piece.end)
        diff = core[0] < core[1] and any(spans[core] != own[core] for spans in others)
        differing += diff
        classes = ["tok", f"c{piece.index % COLOURS}", piece.kind]
        classes += ["byte"] * piece.byte_fallback + ["diff"] * diff
        title = (f"id {piece.token_id} | {piece.token!r} | bytes {piece.data.hex(' ')} | "
                 f"chars {piece.start}-{piece.end}")
        parts.append(f'<span class="{" ".join(classes)}" data-id="{piece.token_id}" data-index="{piece.index}" '
                     f'data-start="{piece.start}" data-end="{piece.end}" data-token="{escape(piece.token)}" '
                     f'data-bytes="{piece.data.hex(" ")}" title="{escape(title)}">{escape(visible(piece.text))}</span>')
    count = len(encoding.ids)
    return (f'<section class="column" data-name="{escape(name)}" data-count="{count}">'
            f'<h2>{escape(name)}</h2><p class="counts"><b class="count">{count}</b> tokens, '
            f'<b class="differing">{differing}</b> split differently</p>'
            f'<div class="tokens">{"".join(parts)}</div></section>')


STYLE = """
body{font-family:sans-serif;margin:1.5em;color:#222}
.columns{display:flex;gap:1.5em;align-items:flex-start}
.column{flex:1;min-width:0;border:1px solid #ddd;border-radius:6px;padding:0 1em 1em}
.tokens{font-family:monospace;font-size:15px;line-height:2;white-space:pre-wrap;word-break:break-all}
.tok{border-radius:3px;padding:1px 0;cursor:pointer;border-bottom:3px solid transparent}
.c0{background:#cfe3ff}.c1{background:#ffe0b3}.c2{background:#d4f2d0}
.c3{background:#f9d0e0}.c4{background:#e6dcff}.c5{background:#fff3a8}
.tok.diff{border-bottom:3px solid #d62728}
.tok.byte,.tok.shared{font-size:11px;outline:1px dashed #888}
.tok.empty{font-weight:bold;outline:1px solid #555}
.tok.hl{outline:2px solid #000}
.gap{color:#aaa}
#details{font-family:monospace;background:#f6f6f6;padding:.5em;min-height:1.5em;white-space:pre-wrap}
.legend span{margin-right:1em}
"""

SCRIPT = """
document.addEventListener('click', function (event) {
  var token = event.target.closest('.tok');
  if (!token) return;
  var start = +token.dataset.start, end = +token.dataset.end;
  document.querySelectorAll('.tok.hl').forEach(function (t) { t.classList.remove('hl'); });
  document.querySelectorAll('.tok').forEach(function (t) {
    var s = +t.dataset.start, e = +t.dataset.end;
    if (t === token || (s < end && e > start)) t.classList.add('hl');
  });
  var column = token.closest('.column').dataset.name;
  document.getElementById('details').textContent = column + ' token ' + token.dataset.index +
    ': id ' + token.dataset.id + ' ' + JSON.stringify(token.dataset.token) + ' bytes ' +
    token.dataset.bytes + ' chars ' + start + '-' + end;
});
"""

PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>hfcompat tokens</title><style>{style}</style></head>
<body><h1>Tokens</h1>
<p>{chars} characters, {size} UTF-8 bytes. Hover a token for its id and bytes; click it to see the
tokens of every tokenizer over the same characters.</p>
<p class="legend"><span>\u00b7 space</span><span>\u21b5 newline</span><span>\u2192 tab</span>
<span style="outline:1px dashed #888">byte / shared span</span>
<span style="border-bottom:3px solid #d62728">split differently</span></p>
<div id="details"></div>
<div class="columns">{columns}</div>
<script>{script}</script>
</body></html>
"""
