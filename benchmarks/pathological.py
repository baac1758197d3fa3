"""Pathological input: one-million-char runs of one char through every kind of model.

Each case (a tokenizer and a run) runs in a fresh process: the tokenizer is loaded (not timed),
then one `encode` of the run is timed, while a thread samples the process's resident memory;
the peak above what the loaded tokenizer held is reported. A case over LIMIT seconds is flagged,
one over --timeout is stopped and reported as such. Runs: a letter, spaces, a combining mark,
a CJK char, an emoji ZWJ sequence.

Run: .venv/bin/python benchmarks/pathological.py [--quick] [--chars N] [--only KEYS] [--backend B]
See benchmarks/README.md ("Pathological input").
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
LIMIT = 10.0  # seconds: a case slower than this is flagged
FAMILY = "\U0001F469\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466"  # 7 code points
RUNS: dict[str, Callable[[int], str]] = {
    "letter": lambda n: "a" * n,
    "spaces": lambda n: " " * n,
    "combining": lambda n: "\u0301" * n,
    "cjk": lambda n: "\u4e2d" * n,
    "emoji-zwj": lambda n: (FAMILY * (n // len(FAMILY) + 1))[:n],
}
# Tokenizer key -> (what it is, the file under ../shared/refs).
TOKENIZERS = {
    "gpt2": ("GPT-2 tokenizer.json (byte-level BPE)", "gpt2/tokenizer.json"),
    "clip": ("CLIP tokenizer.json (BPE with </w>)", "clip/tokenizer.json"),
    "bert": ("BERT uncased vocab.txt (WordPiece)", "bert-base-uncased/vocab.txt"),
    "wordlevel": ("WordLevel over BERT's vocabulary, WhitespaceSplit", "bert-base-uncased/vocab.txt"),
    "t5": ("T5 tokenizer.json (Unigram)", "t5/tokenizer.json"),
    "albert": ("ALBERT spiece.model (Unigram)", "albert/spiece.model"),
    "llama": ("Llama-2 tokenizer.model (SentencePiece BPE)", "llama2/tokenizer.model"),
    "cl100k": ("cl100k_base.tiktoken, encode", "tiktoken/cl100k_base.tiktoken"),
    "cl100k-ordinary": ("cl100k_base.tiktoken, encode_ordinary", "tiktoken/cl100k_base.tiktoken"),
}


def load(key: str) -> Any:
    """The hfcompat tokenizer of one key."""
    import hfcompat

    path = SHARED / "refs" / TOKENIZERS[key][1]
    if key != "wordlevel":
        tokenizer = hfcompat.load(path)
        tokenizer.no_truncation()  # GPT-2's file truncates at 50 tokens
        tokenizer.no_padding()
        return tokenizer
    from hfcompat import pre_tokenizers
    from hfcompat.models import WordLevel
    from hfcompat.models.vocab_files import read_vocab_txt

    return hfcompat.Tokenizer(WordLevel(read_vocab_txt(path), "[UNK]"), pre_tokenizer=pre_tokenizers.WhitespaceSplit())


def resident_mb() -> float:
    """This process's resident memory, in MB (Linux /proc)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class PeakSampler(threading.Thread):
    """Samples the resident memory every few milliseconds until stopped; keeps the peak."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak = resident_mb()
        self.running = True

    def run(self) -> None:
        while self.running:
            self.peak = max(self.peak, resident_mb())
            time.sleep(0.005)

    def stop(self) -> float:
        """Stop sampling; the peak seen."""
        self.running = False
        self.join()
        return max(self.peak, resident_mb())


def run_case(key: str, run: str, chars: int) -> dict[str, Any]:
    """One case in this process: load, then time one encode and sample its memory."""
    tokenizer = load(key)
    text = RUNS[run](chars)
    encode = (lambda: tokenizer.encode_ordinary(text)) if key == "cl100k-ordinary" else \
        (lambda: tokenizer.encode(text).ids)
    tokenizer.encode("warm up")  # first-use tables (charsmap walks, merge tables) are not the run's cost
    base = resident_mb()
    sampler = PeakSampler()
    sampler.start()
    started = time.perf_counter()
    ids = encode()
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "tokens": len(ids), "peak_mb": sampler.stop() - base}


def case_in_subprocess(key: str, run: str, chars: int, backend: str, timeout: float) -> dict[str, Any]:
    """Run one case in a fresh interpreter on one backend; a timeout or a crash is reported, not raised."""
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    if backend == "python":
        environment["HFCOMPAT_PURE_PYTHON"] = "1"
    command = [sys.executable, __file__, "--case", key, run, str(chars)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=environment)
    except subprocess.TimeoutExpired:
        return {"error": f"stopped after {timeout:.0f} s"}
    if done.returncode:
        return {"error": (done.stderr.strip().splitlines() or ["exit %d" % done.returncode])[-1][:80]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(results: list[tuple[str, str, str, dict[str, Any]]], chars: int) -> str:
    """The Markdown table of every case."""
    lines = [f"| tokenizer | run ({chars:,} chars) | backend | seconds | tokens | peak MB | flag |",
             "|---|---|---|---:|---:|---:|---|"]
    for key, run, backend, result in results:
        if "error" in result:
            lines.append(f"| {key} | {run} | {backend} | - | - | - | {result['error']} |")
            continue
        flag = f"over {LIMIT:.0f} s" if result["seconds"] > LIMIT else ""
        lines.append(f"| {key} | {run} | {backend} | {result['seconds']:.2f} | {result['tokens']:,} | "
                     f"{result['peak_mb']:.0f} | {flag} |")
    return "\n".join(lines)


def main() -> None:
    """Parse the options, run every case, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="100,000-char runs instead of 1,000,000")
    parser.add_argument("--chars", type=int, help="the length of every run")
    parser.add_argument("--only", help=f"comma-separated tokenizers: {', '.join(TOKENIZERS)}")
    parser.add_argument("--runs", help=f"comma-separated runs: {', '.join(RUNS)}")
    parser.add_argument("--backend", choices=["compiled", "python", "both"], default="compiled")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a case is stopped")
    parser.add_argument("--case", nargs=3, help=argparse.SUPPRESS)  # the child process's own case
    options = parser.parse_args()
    if options.case:
        key, run, chars = options.case
        print(json.dumps(run_case(key, run, int(chars))))
        return
    chars = options.chars or (100_000 if options.quick else 1_000_000)
    keys = options.only.split(",") if options.only else list(TOKENIZERS)
    runs = options.runs.split(",") if options.runs else list(RUNS)
    backends = ["compiled", "python"] if options.backend == "both" else [options.backend]
    results = []
    for key in keys:
        for run in runs:
            for backend in backends:
                result = case_in_subprocess(key, run, chars, backend, options.timeout)
                print(f"{key} {run} {backend}: {result}", file=sys.stderr, flush=True)
                results.append((key, run, backend, result))
    print(table(results, chars))


if __name__ == "__main__":
    main()
