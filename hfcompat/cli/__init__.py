"""The `hfcompat` command: one module per command group, each adding its subcommands to the
parser (tokens.py: encode, decode, inspect; convert.py: convert, verify; train.py: train, segment;
demo.py; explore.py: evaluate, explain, viz; lint.py). The CLI only parses arguments and calls the library."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn, Sequence

from ..errors import HfcompatError
from . import convert, demo, explore, lint, tokens, train
from .options import PROG, CliError


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point of the console script and of `python -m hfcompat`: exits with the code."""
    sys.exit(run(argv))


def run(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, run the subcommand and return its exit code."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # a token the terminal cannot show must not crash
            stream.reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (HfcompatError, CliError) as error:
        return _fail(str(error))
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        return _fail(f"{where}{error.strerror or error}")
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


def _fail(message: str) -> int:
    """Print one error line (no traceback) and return the usage-error code."""
    first_line = message.strip().splitlines()[0] if message.strip() else "unknown error"
    print(f"{PROG}: error: {first_line}", file=sys.stderr)
    return 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subparser per command."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Tokenizers token-for-token identical to the official libraries, in any format.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in (tokens, convert, train, demo, explore, lint):
        group.add_commands(commands)
    return parser
