"""Byte-level BPE from word counts at scale: hfcompat in one process, hfcompat counting on a
2-worker Dask LocalCluster, `tokenizers`' BpeTrainer and sentencepiece's BPE trainer, on the
same files.

Run: .venv/bin/python benchmarks/train_scale.py [--mb 5] [--vocab 32000] [--shards 4] [--only SIDES]
     [--limit SECONDS]

The corpus is --mb MB of ../shared/corpora (English, Japanese and Chinese), then the standard
library's Python sources, then the Python sources of the packages installed beside it (about
190 MB of distinct text in all with this project's environment, repeated beyond that), cut into
--shards files that every side reads. Each side runs in its own process (stopped after --limit
seconds). Memory: its peak (VmHWM) is its own; for the cluster side the largest worker
process's peak is reported beside the main process's; and for every side the parent samples the
resident memory of the side's whole process tree (the process, Dask's worker processes and any
helper) every 50 ms and reports the largest sum it saw (`all MB`), the memory all processes held
at once. hfcompat counts words (`count_words`, a WordCounts), then trains from the counts
(`train(counts)`), each step timed; `tokenizers` trains on the files with its default threads
(all cores), sentencepiece with its defaults (model_type=bpe, all cores; its own pipeline, so
only its time and memory compare), their counting and merging not timed apart. The last column
says how many of tokenizers' merges hfcompat learned in the same order; `words` is how many
distinct words hfcompat counted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
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
SIDES = ("hfcompat", "hfcompat-dask", "tokenizers", "sentencepiece")


def write_shards(directory: Path, megabytes: float, shards: int) -> list[Path]:
    """--mb MB of the corpora and the Python sources (whole lines, from the start again when they
    are shorter), written in turn to `shards` files of about equal size."""
    lines = [line for name in SOURCES if (SHARED / "corpora" / name).is_file()
             for line in (SHARED / "corpora" / name).read_bytes().splitlines(keepends=True)]
    lines += [line for data in python_sources() for line in data.splitlines(keepends=True)]
    if size_of(lines) < megabytes * 1e6:
        lines += [line for data in package_sources() for line in data.splitlines(keepends=True)]
    wanted = int(megabytes * 1e6)
    paths = [directory / f"shard{i:02}.txt" for i in range(shards)]
    written, next_line = 0, 0
    for i, path in enumerate(paths):
        with path.open("wb") as shard:
            while written < wanted * (i + 1) // shards:
                line = lines[next_line]
                next_line = (next_line + 1) % len(lines)
                shard.write(line)
                written += len(line)
    return paths


def python_sources() -> list[bytes]:
    """The standard library's own .py files that are UTF-8 (about 30 MB; not site-packages, nor
    the few test files written in another encoding), sorted by path."""
    root = Path(sysconfig.get_paths()["stdlib"])
    return [data for path in sorted(root.rglob("*.py")) if "site-packages" not in path.parts
            and is_utf8(data := path.read_bytes())]


def package_sources() -> list[bytes]:
    """The UTF-8 .py files of the installed packages (site-packages; about 150 MB in this
    project's environment), sorted by path: varied code beyond the standard library's."""
    root = Path(sysconfig.get_paths()["purelib"])
    return [data for path in sorted(root.rglob("*.py")) if is_utf8(data := path.read_bytes())]


def size_of(lines: list[bytes]) -> int:
    """Their total length in bytes."""
    return sum(map(len, lines))


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


def run_sentencepiece(files: list[str], vocab: int, output: Path) -> dict:
    """sentencepiece's BPE trainer on the files with its defaults (its own pipeline: not
    byte-level, so only its time and memory compare), all cores."""
    import os

    import sentencepiece
    sentencepiece.SentencePieceTrainer.train(input=",".join(files), model_prefix=str(output.with_suffix("")),
                                             model_type="bpe", vocab_size=vocab, num_threads=os.cpu_count() or 1,
                                             minloglevel=2)
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
    elif side == "sentencepiece":
        result = run_sentencepiece(files, vocab, output)
    else:
        result = run_hfcompat(files, vocab, output, 2 if side == "hfcompat-dask" else 0)
    result.update(seconds=time.perf_counter() - start, peak_mb=_peak_mb())
    print(json.dumps(result))


# --------------------------------------------------------------------------- the parent


def measure(side: str, files: list[Path], vocab: int, output: Path, limit: float | None) -> dict:
    """One side in a fresh process: its JSON report with the largest resident memory its
    process tree held at once (`all_mb`), or {"error": ...}; stopped after `limit` seconds."""
    command = [sys.executable, __file__, "--child", side, str(vocab), str(output), *map(str, files)]
    started, largest = time.perf_counter(), 0
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, text=True, start_new_session=True)
        try:
            while process.poll() is None:
                largest = max(largest, tree_rss(process.pid))
                if limit is not None and time.perf_counter() - started > limit:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
                    return {"error": f"stopped after {limit:.0f} s, {largest / 1024:.0f} MB resident by then"}
                time.sleep(0.05)
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            raise
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            return {"error": (err.read().strip() or "failed").splitlines()[-1]}
        result = json.loads(out.read().strip().splitlines()[-1])
    result["all_mb"] = largest / 1024 if largest else None
    return result


def tree_rss(pid: int) -> int:
    """The resident memory (kB) of process `pid` and all its descendants now (Linux /proc; 0
    elsewhere or once it has gone)."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            tasks = list(Path(f"/proc/{current}/task").iterdir())
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
        for task in tasks:
            try:
                pending += [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                pass
    return total


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
    parser.add_argument("--limit", type=float, help="stop a side after this many seconds (default: none)")
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
            results[side] = measure(side, files, args.vocab, outputs[side], args.limit)
        reference = outputs.get("tokenizers")
        print_table(results, outputs, reference if reference and "error" not in results["tokenizers"] else None,
                    size, args.vocab)


def print_table(results: dict, outputs: dict, reference: Path | None, size: float, vocab: int) -> None:
    """One line per side."""
    print(f"byte-level BPE {vocab} on {size:.1f} MB")
    header = (f"{'side':14} {'total s':>8} {'count s':>8} {'train s':>8} {'peak MB':>8} {'worker MB':>9} "
              f"{'all MB':>7} {'words':>9}  merges as tokenizers")
    print(header)
    print("-" * len(header))
    for side, result in results.items():
        if "error" in result:
            print(f"{side:14} failed: {result['error']}")
            continue
        merges = same_merges(outputs[side], reference) if reference and side.startswith("hfcompat") else "-"
        cells = [f"{side:14}", _cell(result.get("seconds"), 8), _cell(result.get("count_s"), 8),
                 _cell(result.get("train_s"), 8), _cell(result.get("peak_mb"), 8, 0),
                 _cell(result.get("worker_peak_mb"), 9, 0), _cell(result.get("all_mb"), 7, 0),
                 str(result.get("words", "-")).rjust(9)]
        print(" ".join(cells) + f"  {merges}")


def _cell(value: float | None, width: int, digits: int = 2) -> str:
    """A right-aligned number, or "-"."""
    return (f"{value:.{digits}f}" if value is not None else "-").rjust(width)


if __name__ == "__main__":
    main()
