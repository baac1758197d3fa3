"""Training time and peak memory of hfcompat against `tokenizers` and sentencepiece.

Run: .venv/bin/python benchmarks/train.py [--quick] [--only KEYS] [--workers N] [--repeat N] [--json]

The corpus is every text of ../shared/corpora (English, Japanese, Chinese: about 5.7 MB),
written to one temporary file that both sides train on. Each measurement runs in its own
process, so its peak memory (max RSS) is its own. `tokenizers` and sentencepiece use their
default threads (all cores); hfcompat counts words in `--workers` processes (default: all
cores) and trains in one. Rows with a reference model also say how much of it hfcompat
reproduced (merges in the same order, or tokens in common). With --repeat N the two sides run
N times each, taking turns, and each side's fastest run is reported (on a shared machine, a
single run of either side can be slowed by the neighbours).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO))

CORPORA = ["botchan.txt", "taylorswift.txt", "wagahaiwa_nekodearu.txt", "icwb2/pku_test.utf8",
           "icwb2/pku_training_words.utf8", "icwb2/msr_test.utf8", "icwb2/msr_training_words.utf8",
           "icwb2/pku_test_gold.utf8", "icwb2/msr_test_gold.utf8"]
QUICK_LINES = 2000
VOCAB_SIZE = 8000


@dataclass(frozen=True)
class Row:
    """One trainer measured on both sides, and the time ratio it should stay under."""

    key: str
    name: str
    model: str  # hfcompat.train's model name
    reference: str  # "tokenizers" or "sentencepiece"
    target: float | None


ROWS = [
    Row("bytelevel", "byte-level BPE (GPT-2 setup)", "bytelevel_bpe", "tokenizers", 3.0),
    Row("bpe", "BPE (Metaspace, NFKC)", "bpe", "tokenizers", None),
    Row("wordpiece", "WordPiece (BERT setup, HF scoring)", "wordpiece", "tokenizers", None),
    Row("wordlevel", "WordLevel (Whitespace)", "wordlevel", "tokenizers", None),
    Row("unigram", "Unigram (sentencepiece setup)", "unigram", "sentencepiece", 2.0),
]


@dataclass
class Measure:
    """What one training process reports."""

    seconds: float | None
    peak_mb: float | None
    output: str | None
    error: str | None = None
    cpu_seconds: float | None = None  # every thread and child process


def build_corpus(directory: Path, quick: bool) -> Path:
    """Concatenate the shared corpora (the first lines of each with --quick) into one file."""
    path = directory / "corpus.txt"
    with open(path, "wb") as out:
        for name in CORPORA:
            data = (SHARED / "corpora" / name).read_bytes()
            if quick:
                data = b"\n".join(data.split(b"\n")[:QUICK_LINES]) + b"\n"
            out.write(data if data.endswith(b"\n") else data + b"\n")
    return path


# --------------------------------------------------------------------------- one side, in a child


def run_hfcompat(model: str, corpus: Path, output: Path, workers: int) -> None:
    """Train with hfcompat.train and save tokenizer.json."""
    import hfcompat
    options: dict[str, Any] = {"scoring": "hf"} if model == "wordpiece" else {}
    tokenizer = hfcompat.train(str(corpus), model=model, vocab_size=VOCAB_SIZE, show_progress=False,
                               workers=workers, **options)
    tokenizer.save(str(output))


def run_tokenizers(model: str, corpus: Path, output: Path) -> None:
    """Train tokenizers on the very pipeline hfcompat sets up (read from its tokenizer.json)."""
    import tokenizers
    from tokenizers import pre_tokenizers, trainers

    from hfcompat.tools.train import DEFAULT_SPECIAL_TOKENS, pipeline
    tokenizer = tokenizers.Tokenizer.from_str(pipeline(model).to_str())
    common = dict(vocab_size=VOCAB_SIZE, show_progress=False, special_tokens=DEFAULT_SPECIAL_TOKENS[model])
    if model == "bytelevel_bpe":
        trainer = trainers.BpeTrainer(initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), **common)
    elif model == "bpe":
        trainer = trainers.BpeTrainer(**common)
    elif model == "wordpiece":
        trainer = trainers.WordPieceTrainer(**common)
    else:
        trainer = trainers.WordLevelTrainer(**common)
    tokenizer.train([str(corpus)], trainer)
    tokenizer.save(str(output))


def run_sentencepiece(corpus: Path, output: Path) -> None:
    """sentencepiece's unigram trainer with its defaults (nmt_nfkc, dummy prefix, <unk>)."""
    import sentencepiece as spm
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(output.with_suffix("")),
                                   model_type="unigram", vocab_size=VOCAB_SIZE, num_threads=os.cpu_count() or 1,
                                   minloglevel=2)


def child(side: str, model: str, corpus: Path, output: Path, workers: int) -> None:
    """Run one side, then print its wall time and peak memory as JSON."""
    start = time.perf_counter()
    if side == "hfcompat":
        run_hfcompat(model, corpus, output, workers)
    elif side == "tokenizers":
        run_tokenizers(model, corpus, output)
    else:
        run_sentencepiece(corpus, output)
    seconds = time.perf_counter() - start
    usages = [resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)]
    peak_kb = max(usage.ru_maxrss for usage in usages)
    cpu = sum(usage.ru_utime + usage.ru_stime for usage in usages)
    print(json.dumps({"seconds": seconds, "peak_mb": peak_kb / 1024, "cpu_seconds": cpu}))


# --------------------------------------------------------------------------- the parent


def measure(side: str, model: str, corpus: Path, output: Path, workers: int) -> Measure:
    """Run one side in a fresh process."""
    command = [sys.executable, __file__, "--child", side, model, str(corpus), str(output), str(workers)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        lines = (result.stderr.strip() or "failed").splitlines()
        return Measure(None, None, None, lines[-1])
    data = json.loads(result.stdout.strip().splitlines()[-1])
    return Measure(data["seconds"], data["peak_mb"], str(output), cpu_seconds=data["cpu_seconds"])


def fastest(measures: list[Measure]) -> Measure:
    """The fastest of one side's runs (the last one if every run failed)."""
    done = [measure for measure in measures if measure.seconds is not None]
    return min(done, key=lambda measure: measure.seconds) if done else measures[-1]


def agreement(ours: str | None, reference: str | None) -> str:
    """How much of the reference model hfcompat reproduced."""
    if ours is None or reference is None or not reference.endswith(".json"):
        return "-"
    mine = json.loads(Path(ours).read_text(encoding="utf-8"))["model"]
    theirs = json.loads(Path(reference).read_text(encoding="utf-8"))["model"]
    if "merges" in theirs:
        same = 0
        for a, b in zip(mine["merges"], theirs["merges"]):
            if a != b:
                break
            same += 1
        return f"{same}/{len(theirs['merges'])} merges in order"
    common = set(mine["vocab"]) & set(theirs["vocab"])
    exact = sum(1 for t in common if mine["vocab"][t] == theirs["vocab"][t])
    return f"{len(common)}/{len(theirs['vocab'])} tokens ({exact} same id)"


def main() -> None:
    """Measure every row and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"first {QUICK_LINES} lines of each corpus")
    parser.add_argument("--only", help="comma-separated row keys: " + ",".join(r.key for r in ROWS))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each side, taking turns; the fastest counts")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        side, model, corpus, output, workers = args.child
        child(side, model, Path(corpus), Path(output), int(workers))
        return
    if not (SHARED / "corpora").is_dir():
        sys.exit("../shared/corpora is absent: the training benchmark needs it")
    rows = [r for r in ROWS if not args.only or r.key in args.only.split(",")]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        corpus = build_corpus(directory, args.quick)
        size_mb = corpus.stat().st_size / 1e6
        print(f"corpus: {size_mb:.1f} MB, {os.cpu_count()} cores, vocab {VOCAB_SIZE}", file=sys.stderr)
        for row in rows:
            print(f"  {row.name} ...", file=sys.stderr)
            suffix = ".model" if row.reference == "sentencepiece" else ".json"
            references, ourses = [], []
            for _ in range(max(1, args.repeat)):
                references.append(measure(row.reference, row.model, corpus, directory / f"{row.key}-ref{suffix}", 0))
                ourses.append(measure("hfcompat", row.model, corpus, directory / f"{row.key}-ours.json", args.workers))
            reference, ours = fastest(references), fastest(ourses)
            results.append((row, ours, reference, agreement(ours.output, reference.output)))
    if args.json:
        print(json.dumps([{"row": asdict(r), "hfcompat": asdict(o), "reference": asdict(f), "agreement": a}
                          for r, o, f, a in results], indent=2))
        return
    print_table(results, size_mb, max(1, args.repeat))


def print_table(results: list, size_mb: float, repeat: int) -> None:
    """The side-by-side table, then the reasons of failed rows."""
    runs = f", fastest of {repeat} runs per side" if repeat > 1 else ""
    print(f"Training on {size_mb:.1f} MB, vocab {VOCAB_SIZE}{runs}")
    header = f"{'trainer':36} {'hfcompat s':>10} {'ref s':>7} {'ratio':>6} {'target':>6} {'cpu x':>6} " \
             f"{'ours MB':>8} {'ref MB':>7}  reference / agreement"
    print(header)
    print("-" * len(header))
    notes = []
    for row, ours, ref, agree in results:
        ratio = ours.seconds / ref.seconds if ours.seconds and ref.seconds else None
        cpu_ratio = ours.cpu_seconds / ref.cpu_seconds if ours.cpu_seconds and ref.cpu_seconds else None
        cells = [f"{row.name:36}", _num(ours.seconds, 10), _num(ref.seconds, 7), _num(ratio, 6, "x"),
                 f"{'<=' + str(row.target) + 'x' if row.target else '-':>6}", _num(cpu_ratio, 6, "x"),
                 _num(ours.peak_mb, 8, "", 0),
                 _num(ref.peak_mb, 7, "", 0)]
        print(" ".join(cells) + f"  {row.reference} / {agree}")
        for side, result in (("hfcompat", ours), (row.reference, ref)):
            if result.error:
                notes.append(f"{row.key} {side}: {result.error}")
    for note in notes:
        print("  " + note)


def _num(value: float | None, width: int, unit: str = "", digits: int = 2) -> str:
    """A right-aligned number, or "failed"."""
    return f"{value:.{digits}f}{unit}".rjust(width) if value is not None else "failed".rjust(width)


if __name__ == "__main__":
    main()
