"""Unigram training: hfcompat against sentencepiece and tokenizers on the same corpus.

Run: .venv/bin/python benchmarks/train_unigram.py [--corpus mix|botchan|wagahaiwa|pku]
     [--vocab 8000] [--lines N] [--only hfcompat,sentencepiece,tokenizers] [--json]

"mix" is built at run time in a temporary directory from ../shared/corpora (English, Japanese,
Chinese) plus Python files of the standard library (code) up to 6.4 MB; it is never saved in
the repository. Every 20th line is held out; the rest trains each library with the same vocabulary size
and character coverage, whitespace as ▁ and no other normalization. Each trainer runs in its
own process so that its wall time and peak memory (ru_maxrss) are its own. The table gives
the time, the ratio to sentencepiece's time, the peak memory, and the number of tokens each
trained model spends on the held-out lines (fewer is better compression).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import sysconfig
import time
from collections import Counter
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO))

CORPUS_FILES = {
    "botchan": ["corpora/botchan.txt"],
    "wagahaiwa": ["corpora/wagahaiwa_nekodearu.txt"],
    "pku": ["corpora/icwb2/pku_test.utf8"],
    "mix": [
        "corpora/botchan.txt", "corpora/taylorswift.txt", "corpora/wagahaiwa_nekodearu.txt",
        "corpora/icwb2/pku_test.utf8", "corpora/icwb2/msr_test.utf8", "corpora/icwb2/pku_test_gold.utf8",
        "corpora/icwb2/msr_test_gold.utf8", "corpora/icwb2/pku_training_words.utf8",
        "corpora/icwb2/msr_training_words.utf8",
    ],
}
MIX_BYTES = 6_400_000
HELD_OUT_EVERY = 20
SPECIALS = ["<unk>", "<s>", "</s>"]
TRAINERS = ("hfcompat", "sentencepiece", "tokenizers")


def corpus_lines(name: str) -> list[str]:
    """The corpus as non-empty lines ("\\r\\n" read as "\\n"); "mix" is topped up with stdlib code to 6.4 MB."""
    texts = [(SHARED / relative).read_text(encoding="utf-8") for relative in CORPUS_FILES[name]]
    if name == "mix":
        size = sum(len(text.encode("utf-8")) for text in texts)
        for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
            if size >= MIX_BYTES:
                break
            code = path.read_text(encoding="utf-8", errors="replace")
            texts.append(code)
            size += len(code.encode("utf-8"))
    lines = "".join(texts).replace("\r\n", "\n").split("\n")
    return [line for line in lines if line.strip(" ")]


def split(lines: list[str]) -> tuple[list[str], list[str]]:
    """(training lines, held-out lines): every HELD_OUT_EVERY-th line is held out."""
    held = lines[::HELD_OUT_EVERY]
    train = [line for index, line in enumerate(lines) if index % HELD_OUT_EVERY]
    return train, held


def words_of(line: str) -> list[str]:
    """A line's words as the pipeline gives them: split on spaces, each prefixed with ▁."""
    return ["\u2581" + word for word in line.split(" ") if word]


def train_hfcompat(train: list[str], vocab: int, coverage: float, threads: int) -> Callable[[str], int]:
    """Count words and train with hfcompat (`threads` processes); return a held-out line's token count."""
    from hfcompat.trainers.unigram import UnigramTrainer

    counts = Counter(word for line in train for word in words_of(line))
    ends = Counter(words_of(line)[-1] for line in train if words_of(line))  # each line is a sentence
    model = UnigramTrainer(vocab, special_tokens=SPECIALS, character_coverage=coverage,
                           show_progress=False, workers=threads).train(dict(counts), dict(ends))
    return lambda line: sum(len(model.tokenize(word)) for word in words_of(line))


def train_sentencepiece(train: list[str], vocab: int, coverage: float, threads: int) -> Callable[[str], int]:
    """Train with sentencepiece (`threads` threads, identity normalization); return a held-out line's token count."""
    import io

    import sentencepiece as spm

    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(train), model_writer=model, vocab_size=vocab, model_type="unigram",
        normalization_rule_name="identity", character_coverage=coverage, num_threads=threads,
        max_sentence_length=1 << 24, input_sentence_size=0, minloglevel=2)
    processor = spm.SentencePieceProcessor(model_proto=model.getvalue())
    return lambda line: len(processor.encode(line))


def train_tokenizers(train: list[str], vocab: int, coverage: float, threads: int) -> Callable[[str], int]:
    """Train with tokenizers' UnigramTrainer (Metaspace words, its own thread pool); return a held-out line's token count."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.Unigram())
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    trainer = trainers.UnigramTrainer(vocab_size=vocab, special_tokens=SPECIALS, unk_token="<unk>",
                                      show_progress=False)
    tokenizer.train_from_iterator(train, trainer)
    return lambda line: len(tokenizer.encode(line).ids)


def cpu_seconds() -> float:
    """CPU time so far of this process (all its threads) and of its finished child processes."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure_one(trainer: str, corpus: str, vocab: int, lines: int | None, coverage: float, threads: int) -> dict:
    """Run one trainer in this process and describe the result (training time: wall and CPU)."""
    train, held = split(corpus_lines(corpus)[:lines])
    runner = {"hfcompat": train_hfcompat, "sentencepiece": train_sentencepiece, "tokenizers": train_tokenizers}[trainer]
    try:
        start, cpu_start = time.perf_counter(), cpu_seconds()
        count_tokens = runner(train, vocab, coverage, threads)
        result = {"seconds": time.perf_counter() - start, "cpu_seconds": cpu_seconds() - cpu_start,
                  "held_out_tokens": sum(count_tokens(line) for line in held)}
    except BaseException as error:  # a panic in the Rust trainer arrives as pyo3's PanicException
        result = {"error": f"{type(error).__name__}: {error}"}
    result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result["child_peak_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    result["train_mb"] = sum(len(line.encode("utf-8")) + 1 for line in train) / 1e6
    return result


def measure(trainer: str, args: argparse.Namespace) -> dict:
    """Run one trainer in a fresh process (its own peak memory) and read back its result."""
    command = [sys.executable, __file__, "--one", trainer, "--corpus", args.corpus, "--vocab", str(args.vocab),
               "--coverage", str(args.coverage), "--threads", str(args.threads)]
    if args.lines:
        command += ["--lines", str(args.lines)]
    print(f"training {trainer} on {args.corpus} ...", file=sys.stderr, flush=True)
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    if done.returncode != 0 or not done.stdout.strip():
        return {"error": (done.stderr.strip().splitlines() or ["no output"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(results: dict[str, dict], args: argparse.Namespace) -> str:
    """The side-by-side table."""
    reference = results.get("sentencepiece", {})
    rows = [f"Unigram training, corpus {args.corpus} ({next(iter(results.values())).get('train_mb', 0):.1f} MB "
            f"trained, 1 line in {HELD_OUT_EVERY} held out), vocab {args.vocab}, coverage {args.coverage}, "
            f"{args.threads} threads (sentencepiece) / processes (hfcompat)",
            f"{'trainer':<14} {'seconds':>8} {'x spm':>6} {'cpu s':>7} {'x spm':>6} {'peak MB':>8} "
            f"{'held-out tokens':>16} {'x spm':>7}"]
    for name, result in results.items():
        if "error" in result:
            rows.append(f"{name:<14} failed: {result['error'][:100]}")
            continue
        ratios = [result[key] / reference[key] if key in reference else float("nan")
                  for key in ("seconds", "cpu_seconds", "held_out_tokens")]
        rows.append(f"{name:<14} {result['seconds']:>8.1f} {ratios[0]:>6.2f} {result['cpu_seconds']:>7.1f} "
                    f"{ratios[1]:>6.2f} {peak_mb(result):>8.0f} {result['held_out_tokens']:>16} {ratios[2]:>7.4f}")
    rows.append("target: hfcompat <= 2x sentencepiece's time; held-out tokens within 1% of sentencepiece's")
    rows.append("seconds: wall; cpu s: CPU of every thread and worker process; peak MB: the process's max RSS "
                "plus its largest worker's")
    return "\n".join(rows)


def peak_mb(result: dict) -> float:
    """The trainer process's peak memory plus its largest child process's (a worker's), in MB."""
    return result["peak_mb"] + result.get("child_peak_mb", 0.0)


def main() -> None:
    """Parse the options; run each trainer in its own process; print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="mix", choices=sorted(CORPUS_FILES))
    parser.add_argument("--vocab", type=int, default=8000)
    parser.add_argument("--coverage", type=float, default=0.9995)
    parser.add_argument("--lines", type=int, default=None, help="use only the first N lines")
    parser.add_argument("--only", default=",".join(TRAINERS))
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="sentencepiece's num_threads and hfcompat's worker processes (default: all cores)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", choices=TRAINERS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure_one(args.one, args.corpus, args.vocab, args.lines, args.coverage, args.threads)))
        return
    if not SHARED.is_dir():
        sys.exit("../shared is absent: the corpora live beside the repository")
    results = {name: measure(name, args) for name in args.only.split(",")}
    print(json.dumps(results, indent=2) if args.json else table(results, args))


if __name__ == "__main__":
    main()
