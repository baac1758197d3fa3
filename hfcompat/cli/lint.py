"""The `lint` command: what is wrong or risky in tokenizer files that still load."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from ..tools.lint import counts, has_errors, lint, report
from .options import add_load_options, load_options


def add_commands(commands: Any) -> None:
    """Register lint on the `hfcompat` subparsers."""
    parser = commands.add_parser("lint", help="report what is wrong or risky in tokenizers (exit 1 on an error)")
    parser.add_argument("files", metavar="FILE", nargs="+")
    parser.add_argument("--json", action="store_true",
                        help='one JSON object per file and line: {"path", "findings", "counts"}')
    add_load_options(parser)
    parser.set_defaults(handler=cmd_lint)


def cmd_lint(args: argparse.Namespace) -> int:
    """`lint`: the findings on each file; exit code 1 when any has error severity, else 0."""
    failed = False
    for path in args.files:
        start = time.perf_counter()
        findings = lint(path, **load_options(args))
        failed = failed or has_errors(findings)
        if args.json:
            found = {"path": path, "findings": [f.to_dict() for f in findings], "counts": counts(findings)}
            print(json.dumps(found, ensure_ascii=False))
        else:
            print(report(findings, path))
            print(f"({time.perf_counter() - start:.1f} s)\n")
    return 1 if failed else 0
