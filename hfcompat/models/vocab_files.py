"""The plain vocabulary files: `vocab.json` + `merges.txt` (BPE) and `vocab.txt` (WordPiece).

Reading follows HuggingFace `tokenizers` (`BPE::read_file`, `WordPiece::read_file`):
- `vocab.json` is one JSON object token -> id; entries whose value is not a number are skipped,
  a number that is not a non-negative integer is an error.
- `merges.txt` is split into lines (a `\\r` just before a `\\n` is dropped, as by Rust's `lines()`); every
  line starting with `#version` is skipped wherever it is; every other line, blank ones included,
  must split on single spaces into exactly two parts.
- `vocab.txt` holds one token per line, its id being the line index; each line loses its trailing
  White_Space (Rust's `trim_end`). A repeated token keeps its last line.

Writes are atomic (`formats.atomic`): a failed write leaves no partial file behind.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable, Mapping, Union

from ..errors import FormatError, UnsupportedConversion
from ..files import atomic_write_text
from ..pipeline.json_numbers import serde_json_int

PathLike = Union[str, os.PathLike]

MERGES_HEADER = "#version: 0.2"
# Rust's char::is_whitespace (Unicode White_Space); str.isspace also accepts U+001C..U+001F.
WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
MAX_ID = 2**32 - 1


def read_vocab_json(path: PathLike) -> dict[str, int]:
    """Read a BPE `vocab.json` (token -> id), skipping non-numeric values as HF does."""
    text = _read_text(path)
    try:
        data = json.loads(text, parse_int=serde_json_int)  # "-0" is a float to HF, so not an id
    except json.JSONDecodeError as error:
        raise FormatError(f"not valid JSON: {error}", path=str(path)) from None
    if not isinstance(data, dict):
        raise FormatError(f"expected a JSON object token -> id, got {type(data).__name__}", path=str(path))
    vocab: dict[str, int] = {}
    for token, value in data.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if not isinstance(value, int) or not 0 <= value <= MAX_ID:
            raise FormatError(f"id of {token!r} must be an integer in 0..{MAX_ID}, got {value!r}",
                              path=str(path), field=token)
        vocab[token] = value
    return vocab


def read_merges_txt(path: PathLike) -> list[tuple[str, str]]:
    """Read a BPE `merges.txt` into (left, right) pairs in rank order."""
    lines = _lines(_read_text(path))
    found = merge_pairs(lines)
    if isinstance(found, int):
        raise FormatError(f"line {found + 1}: expected two tokens separated by one space, got {lines[found]!r}",
                          path=str(path))
    return found


def merge_pairs(lines: list[str]) -> list[tuple[str, str]] | int:
    """The (left, right) of each merge line "a b" (lines starting with `#version` skipped, as HF
    skips them), or the index of the first line that is not two tokens separated by one space.
    The reference twin of `models/_bpe.merge_pairs` (bpe.py hands it on)."""
    pairs = []
    for index, line in enumerate(lines):
        if is_merges_header(line):
            continue
        pair = split_merge(line)
        if pair is None:
            return index
        pairs.append(pair)
    return pairs


def is_merges_header(line: str) -> bool:
    """True for the lines HF skips in the text form of merges: any line starting with `#version`."""
    return line.startswith("#version")


def split_merge(line: str) -> tuple[str, str] | None:
    """The (left, right) of a merge line `a b`, or None unless it splits on " " into exactly two parts."""
    parts = line.split(" ")
    return (parts[0], parts[1]) if len(parts) == 2 else None


def read_vocab_txt(path: PathLike) -> dict[str, int]:
    """Read a WordPiece `vocab.txt`: one token per line, id = line index."""
    return {line.rstrip(WHITE_SPACE): index for index, line in enumerate(_lines(_read_text(path)))}


def write_vocab_json(path: PathLike, vocab: Mapping[str, int]) -> None:
    """Write `vocab.json` as HF does: compact JSON, entries in id order, non-ASCII kept."""
    ordered = dict(sorted(vocab.items(), key=lambda item: item[1]))
    atomic_write_text(Path(path), json.dumps(ordered, ensure_ascii=False, separators=(",", ":")))


def write_merges_txt(path: PathLike, merges: Iterable[tuple[str, str]]) -> None:
    """Write `merges.txt` as HF does: the `#version: 0.2` header, then one `a b` line per merge."""
    lines = [MERGES_HEADER]
    for index, (left, right) in enumerate(merges):
        line = f"{left} {right}"
        if split_merge(line) != (left, right) or "\n" in line or line.endswith("\r") or is_merges_header(line):
            raise UnsupportedConversion(f"{path}: merge {index} ({left!r}, {right!r}) would not read back "
                                        "from merges.txt (a space, a newline, a final \\r or a #version start)")
        lines.append(line)
    atomic_write_text(Path(path), "\n".join(lines) + "\n")


def write_vocab_txt(path: PathLike, vocab: Mapping[str, int]) -> None:
    """Write `vocab.txt`: one token per line in id order; ids must be exactly 0..n-1."""
    ordered = sorted(vocab.items(), key=lambda item: item[1])
    for index, (token, token_id) in enumerate(ordered):
        if token_id != index:
            raise UnsupportedConversion(f"{path}: vocab.txt needs ids 0..n-1 without gaps or repeats "
                                        f"(id {index} is missing or repeated, at {token!r})")
        if token != token.rstrip(WHITE_SPACE) or "\n" in token:
            raise UnsupportedConversion(f"{path}: token {token!r} has a newline or trailing "
                                        "whitespace, which vocab.txt cannot represent")
    atomic_write_text(Path(path), "".join(f"{token}\n" for token, _ in ordered))


def _read_text(path: PathLike) -> str:
    """Return the UTF-8 text of `path`, turning I/O and decoding failures into FormatError."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise FormatError(f"cannot read file: {error.strerror or error}", path=str(path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FormatError(f"not valid UTF-8 (byte {error.start})", path=str(path)) from None


def _lines(text: str) -> list[str]:
    """Split like Rust's `BufRead::lines`: on `\\n`, dropping a `\\r` just before it; no final empty line."""
    lines = text.split("\n")
    last = lines.pop()
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if last:
        lines.append(last)
    return lines
