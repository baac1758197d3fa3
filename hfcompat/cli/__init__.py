"""The `hfcompat` command: one module per command group, each adding its subcommands to the
parser (tokens.py: encode, decode, inspect; convert.py: convert, verify; train.py: train, segment;
demo.py; explore.py: evaluate, explain, viz; lint.py). The CLI only parses arguments and calls the library."""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from typing import NoReturn, Sequence

from .. import __version__
from ..errors import HfcompatError
from .options import (EXIT_BAD_INPUT, EXIT_BUG, EXIT_CODES_HELP, EXIT_INTERRUPTED, EXIT_USAGE, PROG, CliError,
                      InputError)


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point of the console script and of `python -m hfcompat`: exits with the code."""
    sys.exit(run(argv))


def run(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, run the subcommand and return its exit code."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # a token the terminal cannot show must not crash
            stream.reconfigure(errors="backslashreplace")
    args = parse(build_parser(command_groups(sys.argv[1:] if argv is None else argv)), argv)
    try:
        return args.handler(args)
    except InputError as error:
        return _fail(str(error), EXIT_BAD_INPUT)
    except CliError as error:
        return _fail(str(error), EXIT_USAGE)
    except HfcompatError as error:
        return _fail(str(error), EXIT_BAD_INPUT)
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        return _fail(f"{where}{error.strerror or error}", EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:  # a bug: one line, the traceback only when asked
        if args.debug:
            traceback.print_exc()
        return _fail(f"internal error ({type(error).__name__}: {error}); this is a bug in hfcompat"
                     + ("" if args.debug else ", --debug shows where"), EXIT_BUG)


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """parse_args, except that a command whose TEXT arguments are optional (`texts_after_options`) takes them after
    its options too: argparse fills such a positional before the first option and leaves the rest unrecognized."""
    args, extra = parser.parse_known_args(argv)
    if extra and getattr(args, "texts_after_options", False):
        texts = extra[1:] if extra[0] == "--" else extra
        if texts is extra and any(text.startswith("-") and text != "-" for text in texts):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.text = [*args.text, *texts]
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _fail(message: str, code: int) -> int:
    """Print one error line (no traceback) and return `code`."""
    first_line = message.strip().splitlines()[0] if message.strip() else "unknown error"
    print(f"{PROG}: error: {first_line}", file=sys.stderr)
    return code


# Each command group's module and the commands it adds: a call loads only its command's module.
GROUPS = {"tokens": ("encode", "decode", "inspect"), "convert": ("convert", "verify"),
          "train": ("train", "count", "segment"), "demo": ("demo",), "explore": ("evaluate", "explain", "viz"),
          "lint": ("lint",)}


def command_groups(argv: Sequence[str]) -> list[str]:
    """The groups the parser needs: the named command's alone, or all of them (for help and errors)."""
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    named = [group for group, commands in GROUPS.items() if command in commands]
    return named or list(GROUPS)


def build_parser(groups: Sequence[str] = tuple(GROUPS)) -> argparse.ArgumentParser:
    """The argument parser with one subparser per command of `groups`."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Tokenizers token-for-token identical to the official libraries, in any format.",
        epilog=EXIT_CODES_HELP)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an unexpected error")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in groups:
        importlib.import_module(f".{group}", __name__).add_commands(commands)
    return parser
