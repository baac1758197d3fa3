"""What every `hfcompat` command shares: the load options, reading inputs, the usage error."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ..formats import load
from ..formats.detect import FORMATS

PROG = "hfcompat"

LOAD_OPTIONS = ("encoding", "pattern", "special_tokens", "format")


# Exit codes, the same for every command (and listed in --help).
EXIT_OK = 0
EXIT_DIFFERS = 1  # texts differ (verify, convert --check, demo) or lint found errors
EXIT_USAGE = 2  # the command line is wrong
EXIT_BAD_INPUT = 3  # an input file or text is bad, or cannot become what was asked (the message names it)
EXIT_BUG = 4  # an error hfcompat did not expect: a bug (--debug shows the traceback)
EXIT_INTERRUPTED = 130
EXIT_CODES_HELP = (f"exit codes: {EXIT_OK} ok; {EXIT_DIFFERS} texts differ or lint found errors; {EXIT_USAGE} usage "
                   f"error; {EXIT_BAD_INPUT} bad input (the message names the file and what is wrong); {EXIT_BUG} a "
                   f"bug in hfcompat (--debug shows the traceback); {EXIT_INTERRUPTED} interrupted")


class CliError(Exception):
    """A usage error the command itself detects (exit code 2), reported in one line."""


class InputError(CliError):
    """A bad input file or text the command itself detects (exit code 3), reported like a FormatError."""


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
        raise InputError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None


def read_corpus(path: Path) -> list[str]:
    """The non-empty lines of a UTF-8 corpus file (split on "\\n" only)."""
    return [line for line in read_text(path).split("\n") if line]


def clip(text: str, limit: int = 400) -> str:
    """text cut to about `limit` characters, keeping both ends."""
    return text if len(text) <= limit else f"{text[: limit - 80]} ... {text[-60:]}"


def wants_colour(stream: Any) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def wants_progress(asked: bool | None) -> bool:
    """Progress bars as asked (--progress / --no-progress), else only when stderr is a terminal."""
    return sys.stderr.isatty() if asked is None else asked


def add_progress_option(parser: argparse.ArgumentParser) -> None:
    """--progress / --no-progress (default: a bar on stderr when it is a terminal)."""
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bars on stderr (default: when stderr is a terminal)")


def positive_int(text: str) -> int:
    """argparse type: an integer above 0."""
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {value}")
    return value


def check_output(path: str | Path, suffixes: tuple[str, ...] | None = None) -> None:
    """Fail before any work when an output path cannot be written: a missing or read-only folder, or a
    suffix no writer takes (`suffixes`, "" for a directory)."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise CliError(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise CliError(f"{path}: the folder {folder} is not writable")
    if suffixes is not None and path.suffix and not path.is_dir() and \
            not path.name.endswith(tuple(suffix for suffix in suffixes if suffix)):
        raise CliError(f"{path}: no format writes {path.suffix!r} (expected {', '.join(s for s in suffixes if s)} "
                       "or a path without a suffix for a transformers directory)")
