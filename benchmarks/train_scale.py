"""Byte-level BPE from word counts at scale: hfcompat in one process, hfcompat counting on a
2-worker Dask LocalCluster, and `tokenizers`' BpeTrainer, on the same files.

Run: .venv/bin/python benchmarks/train_scale.py [--mb 5] [--vocab 32000] [--shards 4] [--only SIDES]

The corpus is --mb MB of ../shared/corpora (English, Japanese and Chinese) and the standard
library's Python sources (about 50 MB of distinct text in all, repeated beyond that), cut into
--shards files that every side reads. Each side runs in its own process, so
its peak memory (max RSS) is its own; for the cluster side the largest worker process's peak is
reported beside the main process's. hfcompat counts words (`count_words`, a WordCounts), then
trains from the counts (`train(counts)`), each step timed; `tokenizers` trains on the files with
its default threads (all cores), its counting and merging not timed apart. The last column says
how many of tokenizers' merges hfcompat learned in the same order.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO))

SOURCES = ["botchan.txt", "taylorswift.txt", "wagahaiwa_nekodearu.txt", "icwb2/pku_test.utf8",
           "icwb2/msr_test.utf8", "icwb2/pku_training_words.utf8", "icwb2/msr_training_words.utf8"]
SIDES = ("hfcompat", "hfcompat-dask", "tokenizers")


def write_shards(directory: Path, megabytes: float, shards: int) -> list[Path]:
    """--mb MB of the corpora and the standard library's Python sources (whole lines, repeated
    when they are shorter) in `shards` files."""
    lines = [line for name in SOURCES if (SHARED / "corpora" / name).is_file()
             for line in (SHARED / "corpora" / name).read_bytes().splitlines(keepends=True)]
    lines += [line for data in python_sources() for line in data.splitlines(keepends=True)]
    wanted, taken, size = int(megabytes * 1e6), [], 0
    while size < wanted:
        for line in lines:
            taken.append(line)
            size += len(line)
            if size >= wanted:
                break
    per_shard = -(-len(taken) // shards)
    paths = [directory / f"shard{i:02}.txt" for i in range(shards)]
    for i, path in enumerate(paths):
        path.write_bytes(b"".join(taken[i * per_shard:(i + 1) * per_shard]))
    return paths


def python_sources() -> list[bytes]:
    """The standard library's own .py files that are UTF-8 (about 30 MB; not site-packages, nor
    the few test files written in another encoding), sorted by path."""
    root = Path(sysconfig.get_paths()["stdlib"])
    return [data for path in sorted(root.rglob("*.py")) if "site-packages" not in path.parts
            and is_utf8(data := path.read_bytes())]


def is_utf8(data: bytes) -> bool:
    """True when `data` decodes as UTF-8."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# --------------------------------------------------------------------------- one side, in a child


def run_hfcompat(files: list[str], vocab: int, output: Path, dask_workers: int) -> dict:
    """count_words then train(counts), in this process or counting on a LocalCluster."""
    import hfcompat
    timings: dict = {}
    if dask_workers:
        from dask.distributed import Client, LocalCluster
        started = time.perf_counter()
        with LocalCluster(n_workers=dask_workers, processes=True, threads_per_worker=1,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            timings["cluster_start_s"] = time.perf_counter() - started
            counts, timings["count_s"] = timed(hfcompat.count_words, files, model="bytelevel_bpe", client=client,
                                               show_progress=False)
            timings["worker_peak_mb"] = max(client.run(_peak_mb).values())
    else:
        counts, timings["count_s"] = timed(hfcompat.count_words, files, model="bytelevel_bpe", show_progress=False)
    tokenizer, timings["train_s"] = timed(hfcompat.train, counts, model="bytelevel_bpe", vocab_size=vocab,
                                          show_progress=False)
    timings["words"] = len(counts)
    tokenizer.save(str(output))
    return timings


def timed(function, *args, **options) -> tuple:
    """function(*args, **options) and the seconds it took."""
    start = time.perf_counter()
    result = function(*args, **options)
    return result, time.perf_counter() - start


def run_tokenizers(files: list[str], vocab: int, output: Path) -> dict:
    """tokenizers' BpeTrainer on hfcompat's bytelevel_bpe pipeline (read from its tokenizer.json)."""
    import tokenizers
    from tokenizers import pre_tokenizers, trainers

    from hfcompat.tools.train import DEFAULT_SPECIAL_TOKENS, pipeline
    tokenizer = tokenizers.Tokenizer.from_str(pipeline("bytelevel_bpe").to_str())
    trainer = trainers.BpeTrainer(vocab_size=vocab, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  special_tokens=DEFAULT_SPECIAL_TOKENS["bytelevel_bpe"])
    tokenizer.train(files, trainer)
    tokenizer.save(str(output))
    return {}


def _peak_mb() -> float:
    """This process's peak resident memory in MB (run in each Dask worker too): Linux's VmHWM,
    the peak of this program alone (ru_maxrss keeps the parent's peak across fork and exec, which
    the parent writing a 1 GB corpus would set for every side); ru_maxrss elsewhere."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def child(side: str, files: list[str], vocab: int, output: Path) -> None:
    """Run one side, then print its timings and peak memory as JSON."""
    start = time.perf_counter()
    if side == "tokenizers":
        result = run_tokenizers(files, vocab, output)
    else:
        result = run_hfcompat(files, vocab, output, 2 if side == "hfcompat-dask" else 0)
    result.update(seconds=time.perf_counter() - start, peak_mb=_peak_mb())
    print(json.dumps(result))


# --------------------------------------------------------------------------- the parent


def measure(side: str, files: list[Path], vocab: int, output: Path) -> dict:
    """One side in a fresh process: its JSON report, or {"error": ...}."""
    command = [sys.executable, __file__, "--child", side, str(vocab), str(output), *map(str, files)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        return {"error": (result.stderr.strip() or "failed").splitlines()[-1]}
    return json.loads(result.stdout.strip().splitlines()[-1])


def same_merges(ours: Path, reference: Path) -> str:
    """How many of the reference's merges `ours` has in the same order, from the start."""
    mine = json.loads(ours.read_text(encoding="utf-8"))["model"]["merges"]
    theirs = json.loads(reference.read_text(encoding="utf-8"))["model"]["merges"]
    same = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
    return f"{same}/{len(theirs)}"


def main() -> None:
    """Measure the sides and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=5.0, help="corpus size in MB (default 5)")
    parser.add_argument("--vocab", type=int, default=32000)
    parser.add_argument("--shards", type=int, default=4, help="files the corpus is cut into")
    parser.add_argument("--only", help="comma-separated sides: " + ",".join(SIDES))
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        side, vocab, output, *files = args.child
        child(side, files, int(vocab), Path(output))
        return
    if not (SHARED / "corpora").is_dir():
        sys.exit("../shared/corpora is absent: this benchmark needs it")
    sides = [side for side in SIDES if not args.only or side in args.only.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        files = write_shards(directory, args.mb, args.shards)
        size = sum(path.stat().st_size for path in files) / 1e6
        print(f"byte-level BPE, vocab {args.vocab}, {size:.1f} MB in {len(files)} files", file=sys.stderr)
        outputs = {side: directory / f"{side}.json" for side in sides}
        results = {}
        for side in sides:
            print(f"  {side} ...", file=sys.stderr)
            results[side] = measure(side, files, args.vocab, outputs[side])
        reference = outputs.get("tokenizers")
        print_table(results, outputs, reference if reference and "error" not in results["tokenizers"] else None,
                    size, args.vocab)


def print_table(results: dict, outputs: dict, reference: Path | None, size: float, vocab: int) -> None:
    """One line per side."""
    print(f"byte-level BPE {vocab} on {size:.1f} MB")
    header = f"{'side':14} {'total s':>8} {'count s':>8} {'train s':>8} {'peak MB':>8} {'worker MB':>9}  merges as tokenizers"
    print(header)
    print("-" * len(header))
    for side, result in results.items():
        if "error" in result:
            print(f"{side:14} failed: {result['error']}")
            continue
        merges = same_merges(outputs[side], reference) if reference and side != "tokenizers" else "-"
        cells = [f"{side:14}", _cell(result.get("seconds"), 8), _cell(result.get("count_s"), 8),
                 _cell(result.get("train_s"), 8), _cell(result.get("peak_mb"), 8, 0),
                 _cell(result.get("worker_peak_mb"), 9, 0)]
        print(" ".join(cells) + f"  {merges}")


def _cell(value: float | None, width: int, digits: int = 2) -> str:
    """A right-aligned number, or "-"."""
    return (f"{value:.{digits}f}" if value is not None else "-").rjust(width)


if __name__ == "__main__":
    main()
