"""`hfcompat train`, `count` and `segment`: learn a tokenizer from text files (or from word counts);
count the words a training would count, to a file; cut Chinese text into words."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..segmentation import Dictionary, Segmenter, score
from ..tools.train import MODELS, count_words, train
from ..trainers import WordCounts
from ..trainers.sources import expand
from .options import PROG, CliError, InputError, add_progress_option, check_output, positive_int, wants_progress

# The suffixes hfcompat.save writes (formats.save), "" a transformers directory.
TOKENIZER_SUFFIXES = ("", ".json", ".model", ".tiktoken", ".gguf")


def add_commands(commands: Any) -> None:
    """The train and segment subcommands."""
    train = commands.add_parser("train", help="train a tokenizer on text files and save it")
    train.add_argument("files", metavar="FILE", nargs="+",
                       help="UTF-8 text files (or globs; .gz/.zst, JSON lines and Parquet with --text-column), "
                            "read line by line; with --counts, word counts files")
    train.add_argument("-o", "--output", required=True, help="where to save (.json: tokenizer.json)")
    train.add_argument("--vocab-size", type=positive_int, default=8000)
    train.add_argument("--min-frequency", type=int, default=0)
    train.add_argument("--special-tokens", nargs="*", metavar="TOKEN", help="default: the model's usual ones")
    train.add_argument("--counts", action="store_true", help="FILEs are word counts (from `count`), added in order")
    _add_counting_options(train)
    train.set_defaults(handler=cmd_train)

    count = commands.add_parser("count", help="count the words training a model would count, and save them")
    count.add_argument("files", metavar="FILE", nargs="+", help="as for train")
    count.add_argument("-o", "--output", required=True, help="the word counts file (.jsonl, .jsonl.gz)")
    count.add_argument("--max-words", type=positive_int, help="keep only the most frequent words (approximate counts)")
    _add_counting_options(count)
    count.set_defaults(handler=cmd_count)

    segment = commands.add_parser("segment", help="Chinese word segmentation of a file, or --score GOLD PRED")
    segment.add_argument("files", metavar="FILE", nargs="+", help="text to cut (with --score: GOLD PRED)")
    segment.add_argument("--method", default="dag", help="fmm, bmm, bidirectional, dag, shortest, char, char_bigram")
    segment.add_argument("--dict", metavar="PATH", help="jieba-format dictionary or word list (default: jieba's)")
    segment.add_argument("--hmm", action="store_true", help="cut unknown words with jieba's HMM")
    segment.add_argument("--sep", default="  ", help="word separator of the output (default: two spaces)")
    segment.add_argument("--score", action="store_true", help="score PRED against GOLD (SIGHAN measures)")
    segment.set_defaults(handler=cmd_segment)


def _add_counting_options(command: argparse.ArgumentParser) -> None:
    """The options train and count share: the model whose pipeline counts, and how to read and count."""
    command.add_argument("--model", default="bpe", choices=MODELS)
    command.add_argument("--text-column", metavar="NAME", help="the column of JSON lines and Parquet files")
    command.add_argument("--workers", type=positive_int, default=1, help="processes that count words")
    add_progress_option(command)
    command.add_argument("--quiet", action="store_true", help="no progress bars (as --no-progress)")


def _files(names: list[str]) -> list[Path]:
    """The files the FILE arguments name, each glob expanded (a name is never read as text)."""
    return [path for name in names for path in expand(name)]


def _show_progress(args: argparse.Namespace) -> bool:
    """Progress bars: not with --quiet, else as --progress says or when stderr is a terminal."""
    return not args.quiet and wants_progress(args.progress)


def cmd_count(args: argparse.Namespace) -> int:
    """`count`: hfcompat.count_words on files, saved as a word counts file (atomically)."""
    check_output(args.output)
    counts = count_words(_files(args.files), model=args.model, text_column=args.text_column, workers=args.workers,
                         max_words=args.max_words, show_progress=_show_progress(args))
    counts.save(args.output)
    print(f"{args.output}: {len(counts)} words of {counts.texts} texts, counted for {args.model}")
    return 0


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
    check_output(args.output, TOKENIZER_SUFFIXES)
    options: dict[str, Any] = {}
    if args.model != "unigram":
        options["min_frequency"] = args.min_frequency
    source = sum(WordCounts.load(path) for path in _files(args.files)) if args.counts else _files(args.files)
    try:
        tokenizer = train(source, model=args.model, vocab_size=args.vocab_size, special_tokens=args.special_tokens,
                          workers=args.workers, text_column=args.text_column, show_progress=_show_progress(args),
                          **options)
    except KeyboardInterrupt:
        print(f"{PROG}: training interrupted, nothing written", file=sys.stderr)
        return 130
    except ValueError as error:  # counts of another pipeline, or no line short enough
        raise InputError(str(error)) from None
    tokenizer.save(args.output)
    print(f"{args.output}: {args.model}, {tokenizer.get_vocab_size()} tokens")
    return 0
