"""Batch encoding in threads: cl100k_base's `encode_ordinary_batch`, hfcompat against tiktoken.

Both sides load fresh (not timed) for every timed pass and encode every line of the corpora once,
in `num_threads` threads; the clock is wall time (threads are the point), the best of `--repeat`
passes. hfcompat hands runs of lines to its threads, each run's merges in one release of the GIL;
tiktoken's batch submits a future per line. Ids must be identical.

Run: .venv/bin/python benchmarks/encode_batch.py [--threads 1,2] [--repeat 3] [--lines N]
See benchmarks/README.md ("Batches in threads").
"""

from __future__ import annotations

import argparse
import time
from typing import Sequence

from encode import SHARED, read_lines  # sets RAYON_NUM_THREADS=1

import hfcompat
from hfcompat.formats.tiktoken.encodings import CL100K_PATTERN

CORPORA = ["corpora/botchan.txt", "corpora/icwb2/pku_test.utf8", "corpora/wagahaiwa_nekodearu.txt"]
RANKS = "refs/tiktoken/cl100k_base.tiktoken"


def speeds(lines: list[str], threads: int, repeat: int) -> tuple[float, float]:
    """(hfcompat MB/s, tiktoken MB/s) of `encode_ordinary_batch` in `threads` threads, best passes."""
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    megabytes = sum(len(line.encode("utf-8")) for line in lines) / 1e6
    ranks = load_tiktoken_bpe(str(SHARED / RANKS))
    best = [float("inf"), float("inf")]
    for attempt in range(repeat):
        ours = hfcompat.load(SHARED / RANKS)
        theirs = tiktoken.Encoding(f"cl100k_batch_{threads}_{attempt}", pat_str=CL100K_PATTERN,
                                   mergeable_ranks=ranks, special_tokens={})
        start = time.perf_counter()
        found = ours.encode_ordinary_batch(lines, num_threads=threads)
        best[0] = min(best[0], time.perf_counter() - start)
        start = time.perf_counter()
        expected = theirs.encode_ordinary_batch(lines, num_threads=threads)
        best[1] = min(best[1], time.perf_counter() - start)
        if found != expected:
            raise SystemExit("hfcompat's ids differ from tiktoken's")
    return megabytes / best[0], megabytes / best[1]


def main(argv: Sequence[str] | None = None) -> None:
    """Print one line per thread count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    parser.add_argument("--repeat", type=int, default=3, help="passes per side (the fastest is kept)")
    parser.add_argument("--lines", type=int, default=None, help="only the first N lines of each corpus")
    args = parser.parse_args(argv)
    lines = [line for corpus in CORPORA for line in read_lines(SHARED / corpus, args.lines)]
    print(f"cl100k_base encode_ordinary_batch, {len(lines)} lines, wall MB/s (best of {args.repeat})")
    for threads in (int(value) for value in args.threads.split(",")):
        ours, theirs = speeds(lines, threads, args.repeat)
        print(f"threads={threads}: hfcompat {ours:.2f}  tiktoken {theirs:.2f}  x {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
