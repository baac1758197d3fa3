"""Python calls of a cold encoding pass: a count that noise on a shared machine does not move.

A fresh tokenizer encodes each line of a corpus once under cProfile; the script prints the
number of Python-level calls (functions, methods and builtins) and the functions that took the
most time. Run it on two checkouts (PYTHONPATH=<checkout>) to compare a change of the encode
path before and after, on either backend (HFCOMPAT_PURE_PYTHON=1 for the pure one). Process CPU
is in encode_cold.py; this is its steady companion where CPU time is too noisy to compare.

Run: .venv/bin/python benchmarks/encode_calls.py refs/bert-base-uncased/vocab.txt corpora/botchan.txt
         [--mode encoding|ids] [--lines N] [--top N]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats

from encode import SHARED, read_lines

import hfcompat


def main() -> None:
    """Encode the corpus once with a fresh tokenizer under cProfile and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tokenizer", help="a file under ../shared (e.g. refs/t5/tokenizer.json)")
    parser.add_argument("corpus", help="a corpus under ../shared (e.g. corpora/botchan.txt)")
    parser.add_argument("--mode", choices=("encoding", "ids"), default="encoding",
                        help="encode (ids and offsets read) or encode_ids")
    parser.add_argument("--lines", type=int, default=3000, help="the first N lines of the corpus")
    parser.add_argument("--top", type=int, default=8, help="how many functions to list")
    args = parser.parse_args()
    lines = read_lines(SHARED / args.corpus, args.lines)
    tokenizer = hfcompat.load(SHARED / args.tokenizer)
    profile = cProfile.Profile()
    profile.enable()
    for line in lines:
        if args.mode == "ids":
            tokenizer.encode_ids(line)
        else:
            encoding = tokenizer.encode(line)
            encoding.ids, encoding.offsets  # noqa: B018 - what a caller reads
    profile.disable()
    stats = pstats.Stats(profile, stream=io.StringIO())
    print(f"{args.tokenizer} on {args.corpus} ({len(lines)} lines, {args.mode}, backend {hfcompat.backend}): "
          f"{stats.total_calls:,} Python calls")
    if args.top:
        stats.stream = None  # print to stdout
        stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
