"""The commands that look at tokenizers: `evaluate`, `explain` and `viz`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..files import atomic_write_text
from ..tools.evaluate import evaluate
from ..tools.viz import page
from .options import add_load_options, load_tokenizer, read_corpus, read_text


def tokenizer_name(path: str) -> str:
    """A short name for a tokenizer path: its directory for a tokenizer.json, else the file name."""
    candidate = Path(path)
    generic = {"tokenizer.json", "vocab.txt", "vocab.json", "merges.txt", "tokenizer.model"}
    if candidate.name in generic and candidate.parent.name:
        return candidate.parent.name
    return candidate.name


def add_commands(commands: Any) -> None:
    """Register evaluate, explain and viz on the `hfcompat` subparsers."""
    evaluate = commands.add_parser("evaluate", help="measure and compare tokenizers on a corpus")
    evaluate.add_argument("tokenizers", metavar="TOK", nargs="+")
    evaluate.add_argument("--corpus", metavar="FILE", required=True, type=Path,
                          help="UTF-8 text, one text per line (special-token strings count as text)")
    evaluate.add_argument("--html", metavar="OUT", type=Path, help="also write the report page")
    evaluate.add_argument("--json", action="store_true", help="print the report as one JSON object")
    add_load_options(evaluate)
    evaluate.set_defaults(handler=cmd_evaluate)

    explain = commands.add_parser("explain", help="show every stage of encoding a text, step by step")
    explain.add_argument("tokenizer", metavar="TOK")
    explain.add_argument("text", metavar="TEXT")
    explain.add_argument("--no-special", action="store_true", help="do not run the post-processor")
    explain.add_argument("--json", action="store_true", help="print the explanation as JSON")
    add_load_options(explain)
    explain.set_defaults(handler=cmd_explain)

    viz = commands.add_parser("viz", help="write an HTML page showing the tokens of one or more tokenizers")
    viz.add_argument("tokenizers", metavar="TOK", nargs="+")
    source = viz.add_mutually_exclusive_group(required=True)
    source.add_argument("--text", help="the text to show")
    source.add_argument("--file", type=Path, help="a UTF-8 file holding the text")
    viz.add_argument("-o", "--output", type=Path, required=True, metavar="PAGE", help="the HTML file to write")
    viz.add_argument("--special", action="store_true", help="also show the post-processor's tokens")
    add_load_options(viz)
    viz.set_defaults(handler=cmd_viz)


def named_tokenizers(args: argparse.Namespace) -> dict[str, Any]:
    """The TOK arguments loaded, by short name (the full paths when short names clash)."""
    names = [tokenizer_name(path) for path in args.tokenizers]
    if len(set(names)) < len(names):
        names = list(args.tokenizers)
    return {name: load_tokenizer(path, args) for name, path in zip(names, args.tokenizers)}


def cmd_evaluate(args: argparse.Namespace) -> int:
    """`evaluate`: the measures of each tokenizer on the corpus, as a table or JSON."""
    texts = read_corpus(args.corpus)
    try:
        evaluation = evaluate(named_tokenizers(args), texts, progress=True)
    except KeyboardInterrupt:
        print("evaluate: interrupted, nothing written", file=sys.stderr)
        return 130
    if args.html:
        atomic_write_text(args.html, evaluation.to_html())
    if args.json:
        print(json.dumps(evaluation.to_dict(), ensure_ascii=False))
    else:
        print(f"{len(texts)} texts from {args.corpus}")
        print(evaluation.table())
        if args.html:
            print(f"wrote {args.html}")
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    """`explain`: normalization, pre-tokens, model steps, post-processing, ids and decoded text."""
    explanation = load_tokenizer(args.tokenizer, args).explain(args.text, not args.no_special)
    print(explanation.to_json() if args.json else explanation)
    return 0


def cmd_viz(args: argparse.Namespace) -> int:
    """`viz`: the token page of the text for every tokenizer, side by side."""
    text = args.text if args.text is not None else read_text(args.file)
    tokenizers = named_tokenizers(args)
    atomic_write_text(args.output, page(tokenizers, text, add_special_tokens=args.special))
    print(f"wrote {args.output} ({len(tokenizers)} tokenizers, {len(text)} characters)")
    return 0
