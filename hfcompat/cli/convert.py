"""`hfcompat convert` and `verify`: move a tokenizer between formats and prove nothing changed."""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path
from typing import Any

from ..errors import InexactConversion
from ..formats.detect import detect_format
from ..tools.checked_convert import checked_convert
from ..tools.verify import LIBRARIES, llama_cpp_test_cases, verify
from .options import (CliError, add_load_options, add_progress_option, clip, load_options, read_corpus,
                      wants_progress)


def add_commands(commands: Any) -> None:
    """The convert and verify subcommands."""
    convert = commands.add_parser("convert", help="convert a tokenizer to another format, exactly or not at all")
    convert.add_argument("source", metavar="SRC", help="any file or directory hfcompat reads")
    convert.add_argument("destination", metavar="DST",
                         help="tokenizer.json, .model, .tiktoken, or a directory (transformers)")
    convert.add_argument("--check", metavar="CORPUS", type=Path,
                         help="verify the new file (in its own library) against SRC (in its own) on this corpus "
                              "before it takes DST's place; on any difference DST is left as it was (exit 1)")
    convert.add_argument("--inexact", action="store_true",
                         help="where DST's format cannot hold SRC exactly but has a nearest form (a charsmap "
                              "or Unigram that the other library runs differently), write it with a warning "
                              "saying what differs instead of refusing")
    add_load_options(convert)
    convert.set_defaults(handler=cmd_convert)

    verify = commands.add_parser("verify", help="compare hfcompat (or a converted file) with the official library")
    verify.add_argument("tokenizer", metavar="PATH")
    verify.add_argument("--corpus", metavar="FILE", type=Path,
                        help="UTF-8 text, one input per line (a GGUF's default: llama.cpp's test strings beside it)")
    verify.add_argument("--reference", metavar="ORIGINAL",
                        help="compare PATH in its own library with ORIGINAL in its own (a conversion)")
    verify.add_argument("--against", default="auto", choices=("auto",) + LIBRARIES,
                        help="the reference library (default: the owner of the file's format)")
    verify.add_argument("--no-special", action="store_true", help="encode without special tokens")
    verify.add_argument("--show", metavar="N", type=int, default=3, help="divergences to print (default 3)")
    verify.add_argument("--json", action="store_true",
                        help="print the report as JSON on stdout (the summary line goes to stderr)")
    add_progress_option(verify)
    add_load_options(verify)
    verify.set_defaults(handler=cmd_verify)


def cmd_convert(args: argparse.Namespace) -> int:
    """`convert`: load SRC, save DST (refused with the reason when not exact); with --check, DST
    is written only when the new file encodes every corpus line as SRC does."""
    texts = None if args.check is None else read_corpus(args.check)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InexactConversion)
        done = checked_convert(args.source, args.destination, texts, progress=wants_progress(None),
                               exact=not args.inexact, **load_options(args))
    for warning in caught:
        if issubclass(warning.category, InexactConversion):
            print(f"hfcompat: warning: {warning.message}", file=sys.stderr)
        else:
            warnings.showwarning(warning.message, warning.category, warning.filename, warning.lineno)
    tokenizer, report = done.tokenizer, done.report
    if report is not None:
        _print_divergences(report, 3)
        _print_notes(report)
    if done.written:
        print(f"wrote {args.destination} ({type(tokenizer.model).__name__}, {tokenizer.get_vocab_size()} tokens)")
    else:
        print(f"nothing written to {args.destination}: the converted file differs from {args.source}")
    if report is not None:
        print(report.summary())
    return 0 if done.written else 1


def cmd_verify(args: argparse.Namespace) -> int:
    """`verify`: every corpus line on both sides; exit 1 on any mismatch; last line "N/N identical"."""
    report = verify(args.tokenizer, _corpus(args), against=args.against, reference=args.reference,
                    add_special_tokens=not args.no_special, keep=max(args.show, 1),
                    progress=wants_progress(args.progress), **load_options(args))
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(f"subject:   {report.subject}  {report.subject_mb_per_s:.3f} MB/s")
        print(f"reference: {report.reference}  {report.reference_mb_per_s:.3f} MB/s")
        _print_divergences(report, args.show)
        _print_notes(report)
    print(report.summary(), file=sys.stderr if args.json else sys.stdout)
    return 0 if report.ok else 1


def _corpus(args: argparse.Namespace) -> list[str]:
    """The --corpus lines, or the test strings recorded beside a GGUF on either side."""
    if args.corpus is not None:
        return read_corpus(args.corpus)
    # --format names the format of the file hfcompat reads: ORIGINAL when there is one
    sides = [(args.tokenizer, None), (args.reference, args.format)] if args.reference else [(args.tokenizer, args.format)]
    for path, format in sides:
        if detect_format(path, format) == "gguf":
            return [text for text, _ in llama_cpp_test_cases(path)]
    raise CliError("--corpus is required (only a GGUF with llama.cpp's test strings beside it has a built-in one)")


def _print_divergences(report: Any, limit: int) -> None:
    """The first divergences of a report, a few lines each."""
    for divergence in report.first_divergences[:limit]:
        print(clip(divergence.describe(), 1200))
    if report.mismatches > limit:
        print(f"... {report.mismatches - limit} more texts differ")


def _print_notes(report: Any) -> None:
    """What the comparison left out, one `note:` line each."""
    for note in report.notes:
        print(f"note: {note}")
