"""`hfcompat train` and `segment`: learn a tokenizer from text files; cut Chinese text into words."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..segmentation import Dictionary, Segmenter, score
from ..tools.train import train
from .options import PROG, CliError


def add_commands(commands: Any) -> None:
    """The train and segment subcommands."""
    train = commands.add_parser("train", help="train a tokenizer on text files and save it")
    train.add_argument("files", metavar="FILE", nargs="+", help="UTF-8 text files, read line by line")
    train.add_argument("-o", "--output", required=True, help="where to save (.json: tokenizer.json)")
    train.add_argument("--model", default="bpe", choices=["bpe", "bytelevel_bpe", "wordpiece", "wordlevel",
                                                         "unigram", "sentencepiece_bpe"])
    train.add_argument("--vocab-size", type=int, default=8000)
    train.add_argument("--min-frequency", type=int, default=0)
    train.add_argument("--special-tokens", nargs="*", metavar="TOKEN", help="default: the model's usual ones")
    train.add_argument("--workers", type=int, default=1, help="processes that count words")
    train.add_argument("--quiet", action="store_true", help="no progress bars")
    train.set_defaults(handler=cmd_train)

    segment = commands.add_parser("segment", help="Chinese word segmentation of a file, or --score GOLD PRED")
    segment.add_argument("files", metavar="FILE", nargs="+", help="text to cut (with --score: GOLD PRED)")
    segment.add_argument("--method", default="dag", help="fmm, bmm, bidirectional, dag, shortest, char, char_bigram")
    segment.add_argument("--dict", metavar="PATH", help="jieba-format dictionary or word list (default: jieba's)")
    segment.add_argument("--hmm", action="store_true", help="cut unknown words with jieba's HMM")
    segment.add_argument("--sep", default="  ", help="word separator of the output (default: two spaces)")
    segment.add_argument("--score", action="store_true", help="score PRED against GOLD (SIGHAN measures)")
    segment.set_defaults(handler=cmd_segment)


def cmd_segment(args: argparse.Namespace) -> int:
    """`segment`: print each line of FILE cut into words, or score a segmentation (--score GOLD PRED)."""

    if args.score:
        if len(args.files) != 2:
            raise CliError("--score needs two files: GOLD PRED")
        gold, predicted = (Path(f).read_text(encoding="utf-8").splitlines() for f in args.files)
        known = Dictionary.load(args.dict).freq if args.dict else {}
        print(score(gold, predicted, (w for w, f in known.items() if f)).summary())
        return 0
    try:
        dictionary = Dictionary.load(args.dict) if args.dict else None
        segmenter = Segmenter(dictionary, method=args.method, hmm=args.hmm)
    except (ValueError, ModuleNotFoundError) as error:
        raise CliError(str(error)) from None
    for name in args.files:
        for line in Path(name).read_text(encoding="utf-8").splitlines():
            print(args.sep.join(word for word in segmenter.cut(line) if not word.isspace()))
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    """`train`: hfcompat.train on files, then save; Ctrl-C stops without writing anything."""
    options: dict[str, Any] = {}
    if args.model != "unigram":
        options["min_frequency"] = args.min_frequency
    try:
        tokenizer = train([Path(f) for f in args.files], model=args.model, vocab_size=args.vocab_size,
                          special_tokens=args.special_tokens, workers=args.workers,
                          show_progress=not args.quiet, **options)
    except KeyboardInterrupt:
        print(f"{PROG}: training interrupted, nothing written", file=sys.stderr)
        return 130
    tokenizer.save(args.output)
    print(f"{args.output}: {args.model}, {tokenizer.get_vocab_size()} tokens")
    return 0
