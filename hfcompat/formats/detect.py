"""Which format a tokenizer file holds, read from its content: the name is only a hint.

sentencepiece, tiktoken and transformers open a file of any name, so hfcompat does too: a GGUF by
its magic number, a JSON object by its keys (tokenizer.json, tekken.json, a vocab.json map), a
tiktoken rank file by its `base64 rank` lines, a SentencePiece ModelProto by parsing, and a
plain word list (vocab.txt, merges.txt) last. `format=` names one and skips the detection.

`detect_format` is the one place that decides what a path holds: `load`, `verify` (the file under
test and the library it is compared with), `lint`, `inspect` and every command ask it.
"""

from __future__ import annotations

from pathlib import Path

import regex

from ..errors import FormatError

FORMATS = ("tokenizer.json", "tekken.json", "hfcompat.json", "vocab.json", "merges.txt", "vocab.txt",
           "sentencepiece", "tiktoken", "gguf")
# The file a directory written for transformers with hfcompat inside holds (hf_tokenizer_class).
HFCOMPAT_FILE = "hfcompat_tokenizer.json"
DIRECTORY = "directory"  # what detect_format says of a directory (transformers' or one holding a tokenizer)
# What a file name's suffix says it holds: a hint the content must agree with (a rank file is text).
SUFFIX_FORMATS = {".gguf": {"gguf"}, ".model": {"sentencepiece"}, ".tiktoken": {"tiktoken"},
                  ".json": {"tokenizer.json", "tekken.json", "hfcompat.json", "vocab.json"},
                  ".txt": {"vocab.txt", "merges.txt", "tiktoken"}}
# The reader a suffix names when the content shows no format (that reader then says what is wrong).
SUFFIX_FALLBACK = {".gguf": "gguf", ".model": "sentencepiece", ".tiktoken": "tiktoken", ".json": "tokenizer.json",
                   ".txt": "vocab.txt"}
HEAD_BYTES = 1 << 16
_RANK_LINE = regex.compile(rb"[A-Za-z0-9+/]*={0,2} [0-9]+")
_JSON_KEY = regex.compile(r'"([^"\\]*)"\s*:')
_VOCAB_ENTRY = regex.compile(r'\{\s*"(?:[^"\\]|\\.)*"\s*:\s*-?[0-9]')  # {"token": 12, ...


class EmptyFile(FormatError):
    """A file with nothing (or only whitespace) in it: no format to read it as."""


def detect_format(path: str | Path, format: str | None = None) -> str:
    """What `path` holds: DIRECTORY, or one of FORMATS read from the content (`format` when given).

    A name whose suffix says another format is an error naming both; content that shows none is
    read as the suffix says (its reader then tells what is wrong)."""
    path = Path(path)
    if path.is_dir():
        return DIRECTORY
    if not path.exists():
        raise FormatError("no such file or directory", path=str(path))
    if format is not None:
        if format not in FORMATS:
            raise FormatError(f"unknown format {format!r}: expected one of {', '.join(FORMATS)}", path=str(path))
        return format
    named = SUFFIX_FORMATS.get(path.suffix)
    try:
        found = content_format(path)
    except EmptyFile:
        raise
    except FormatError:
        if named is None:
            raise
        return SUFFIX_FALLBACK[path.suffix]
    if named is not None and found not in named:
        raise FormatError(f"the name says {path.suffix} but the content is a {found} file (format= chooses "
                          "how to read it)", path=str(path))
    return found


def content_format(path: Path) -> str:
    """The format the bytes of the file at `path` show (one of FORMATS), or FormatError saying it is none."""
    try:
        with open(path, "rb") as file:
            head = file.read(HEAD_BYTES)
    except OSError as error:
        raise FormatError(f"cannot read: {error.strerror}", path=str(path)) from None
    if head.startswith(b"GGUF"):
        return "gguf"
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff \t\r\n")
    if not text and not head.strip(b"\xef\xbb\xbf \t\r\n"):
        raise EmptyFile("the file is empty: no tokenizer in it", path=str(path))
    if text.startswith("{"):
        return _json_format(path, text)
    if _is_rank_file(head):
        return "tiktoken"
    if head[:1] == b"\n" and not _is_text(head):
        return "sentencepiece"  # a ModelProto starts with its first piece: field 1, length-delimited
    if _is_text(head):
        first = text.split("\n", 1)[0]
        if path.name == "merges.txt" or first.startswith("#version"):
            return "merges.txt"
        return "vocab.txt"
    raise FormatError("unrecognised tokenizer file: its content is no tokenizer.json, tekken.json, GGUF, "
                      "SentencePiece model, tiktoken rank file, vocab.txt or vocab.json + merges.txt "
                      "(format= names one)", path=str(path))


def _json_format(path: Path, text: str) -> str:
    """Which JSON format: told apart by the top-level keys the file starts with; an object with none of them is a
    vocab.json when its first value is a number (a token -> id map) or its name says vocab, else a tokenizer.json
    (whose reader then says what it lacks)."""
    keys = set(_JSON_KEY.findall(text[:4096]))
    if "default_num_special_tokens" in keys or "tekken" in path.name:
        return "tekken.json"
    if path.name.endswith(HFCOMPAT_FILE):
        return "hfcompat.json"
    if keys & {"model", "added_tokens", "normalizer", "pre_tokenizer", "truncation"}:
        return "tokenizer.json"
    if _VOCAB_ENTRY.match(text) or (not keys and "vocab" in path.name):
        return "vocab.json"
    return "tokenizer.json"


def _is_rank_file(head: bytes) -> bool:
    """True when the first lines are `base64 rank` pairs, as in a tiktoken file."""
    lines = [line for line in head.split(b"\n")[:-1][:50] if line.strip()]
    return bool(lines) and all(_RANK_LINE.fullmatch(line.rstrip(b"\r")) for line in lines)


def _is_text(head: bytes) -> bool:
    """True for UTF-8 text without control bytes other than whitespace (a word list)."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 4:  # only a char cut at the end of the head is allowed
            return False
        text = head[:error.start].decode("utf-8")
    return not any(ord(char) < 32 and char not in "\t\r\n" for char in text)
