"""What every `hfcompat` command shares: the load options, reading inputs, the usage error."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..formats import load
from ..formats.detect import FORMATS

PROG = "hfcompat"

LOAD_OPTIONS = ("encoding", "pattern", "special_tokens", "format")


class CliError(Exception):
    """Bad input the command itself detects; reported like a FormatError (exit code 2)."""


def add_load_options(parser: argparse.ArgumentParser) -> None:
    """The options of hfcompat.load: the format, and what a file does not hold (tiktoken, GGUF)."""
    parser.add_argument("--format", choices=FORMATS, help="read the file as this format (default: by its content)")
    parser.add_argument("--encoding", help="tiktoken encoding name of a .tiktoken file (e.g. cl100k_base)")
    parser.add_argument("--pattern", help="split pattern of a .tiktoken file, or of a GGUF whose pre name is unknown")
    parser.add_argument("--special-tokens", metavar="JSON", type=json_object,
                        help='special tokens of a .tiktoken file, e.g. \'{"<|endoftext|>": 100257}\'')


def json_object(text: str) -> dict:
    """argparse type: a JSON object."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"not JSON: {error}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("expected a JSON object")
    return value


def load_options(args: argparse.Namespace) -> dict[str, Any]:
    """The load options given on the command line (unset ones left out)."""
    return {name: getattr(args, name) for name in LOAD_OPTIONS if getattr(args, name, None) is not None}


def load_tokenizer(path: str, args: argparse.Namespace | None = None) -> Any:
    """`hfcompat.load(path)` with the command line's load options."""
    return load(path, **(load_options(args) if args is not None else {}))


def read_text(path: Path) -> str:
    """The text of a UTF-8 file."""
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        raise CliError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None


def read_corpus(path: Path) -> list[str]:
    """The non-empty lines of a UTF-8 corpus file (split on "\\n" only)."""
    return [line for line in read_text(path).split("\n") if line]


def clip(text: str, limit: int = 400) -> str:
    """text cut to about `limit` characters, keeping both ends."""
    return text if len(text) <= limit else f"{text[: limit - 80]} ... {text[-60:]}"
