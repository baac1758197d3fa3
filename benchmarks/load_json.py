"""Load time of large tokenizer.json files: hfcompat (both backends) against `tokenizers`.

Each measurement runs in a fresh interpreter (imports not timed, nothing cached from an earlier
load); the best of `--repeat` is kept. Files: Llama 3 (128,256 tokens, 280,147 merges) and Qwen2
(151,646 tokens) as hfcompat converts llama.cpp's vocab-only GGUF files of ../shared/refs/gguf
(tokenizers reads the same files), and GPT-2's tokenizer.json.

Run: .venv/bin/python benchmarks/load_json.py [--repeat N]
See benchmarks/README.md ("Loading large tokenizer.json files").
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from encode import SHARED, fmt, probe, render_table

import hfcompat

FILES = {
    "Llama 3": "refs/gguf/ggml-vocab-llama-bpe.gguf",
    "Qwen2": "refs/gguf/ggml-vocab-qwen2.gguf",
    "GPT-2": "refs/gpt2/tokenizer.json",
}
SIDES = {
    "hfcompat compiled": ("import hfcompat", "hfcompat.Tokenizer.from_file({path!r})", {}),
    "hfcompat python": ("import hfcompat", "hfcompat.Tokenizer.from_file({path!r})", {"HFCOMPAT_PURE_PYTHON": "1"}),
    "tokenizers": ("import tokenizers", "tokenizers.Tokenizer.from_file({path!r})", {}),
}


def tokenizer_json(name: str, scratch: Path) -> Path:
    """The tokenizer.json of one row: a GGUF file converted by hfcompat, or the file itself."""
    source = SHARED / FILES[name]
    if source.suffix != ".gguf":
        return source
    target = scratch / f"{source.stem}.json"
    hfcompat.convert(source, target)
    return target


def best_load(side: str, path: Path, repeat: int) -> float:
    """The fastest of `repeat` wall-clock loads of `path`, each in a fresh interpreter."""
    imports, load, env = SIDES[side]
    return min(probe(imports, load.format(path=str(path)), env)[0] for _ in range(repeat))


def main() -> None:
    """Print one row per file: its size and each side's load seconds, and hfcompat's ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="fresh-interpreter loads per side (best kept)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="hfcompat-load-") as tmp:
        for name in FILES:
            if not (SHARED / FILES[name]).exists():
                print(f"{name}: skipped, {SHARED / FILES[name]} is missing")
                continue
            path = tokenizer_json(name, Path(tmp))
            model = json.loads(path.read_text(encoding="utf-8"))["model"]
            seconds = {side: best_load(side, path, args.repeat) for side in SIDES}
            rows.append([name, f"{len(model['vocab']):,}", f"{len(model['merges']):,}",
                         *(fmt(seconds[side], ".3f") for side in SIDES),
                         fmt(seconds["tokenizers"] / seconds["hfcompat compiled"], ".2f")])
    print(render_table(["file", "tokens", "merges", *(f"{side} s" for side in SIDES), "x"], rows, 1))


if __name__ == "__main__":
    main()
