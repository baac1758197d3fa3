"""The README's evaluation table: cl100k_base, GPT-2, Llama-2 and a tokenizer hfcompat trains.

Run: .venv/bin/python benchmarks/evaluate_table.py [--lines N] [--html out.html] [--json]
Texts: N evenly spread lines of each corpus of ../shared/corpora plus fixtures/multilingual.txt.
A tokenizer that cannot be loaded (e.g. ../shared is absent) is listed with the reason, not guessed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO))

import hfcompat  # noqa: E402
from hfcompat.tools.evaluate import evaluate  # noqa: E402
from hfcompat.tools.evaluate_report import markdown_by_script, markdown_table  # noqa: E402

CORPORA = ["corpora/botchan.txt", "corpora/taylorswift.txt", "corpora/wagahaiwa_nekodearu.txt",
           "corpora/icwb2/pku_test.utf8"]
TRAINED_VOCAB = 8000


def sample_texts(lines_per_corpus: int) -> list[str]:
    """Evenly spread lines of each corpus, then the fixture's lines."""
    texts = []
    for relative in CORPORA:
        lines = [line for line in (SHARED / relative).read_text("utf-8").split("\n") if line.strip()]
        step = max(1, len(lines) // lines_per_corpus)
        texts += lines[::step][:lines_per_corpus]
    fixture = (REPO / "fixtures" / "multilingual.txt").read_text("utf-8").split("\n")
    return texts + [line for line in fixture if line.strip()]


def cl100k() -> Any:
    """cl100k_base from its rank file."""
    return hfcompat.load(SHARED / "refs/tiktoken/cl100k_base.tiktoken", encoding="cl100k_base")


def gpt2() -> Any:
    """GPT-2's tokenizer.json."""
    return hfcompat.load(SHARED / "refs/gpt2/tokenizer.json")


def llama2() -> Any:
    """Llama-2's SentencePiece model."""
    return hfcompat.load(SHARED / "refs/llama2/tokenizer.model")


def phi3() -> Any:
    """Phi-3-mini's tokenizer.json: Llama-2's 32k SentencePiece vocabulary as an HF BPE."""
    return hfcompat.load(SHARED / "refs/phi-3-mini/tokenizer.json")


def trained() -> Any:
    """A BPE (the `model="bpe"` pipeline: NFKC, Metaspace) trained by hfcompat on the corpora."""
    files = [str(SHARED / relative) for relative in CORPORA]
    return hfcompat.train(files, model="bpe", vocab_size=TRAINED_VOCAB, show_progress=False)


CANDIDATES: list[tuple[str, Callable[[], Any]]] = [
    ("cl100k_base", cl100k), ("gpt2", gpt2), ("llama2", llama2),
    ("phi-3-mini (llama2 vocab)", phi3), (f"hfcompat-bpe-{TRAINED_VOCAB}", trained)]


def load_all() -> tuple[dict[str, Any], dict[str, str]]:
    """The tokenizers that load, and the reason for each that does not."""
    loaded, missing = {}, {}
    for name, build in CANDIDATES:
        try:
            loaded[name] = build()
        except Exception as error:  # noqa: BLE001 - reported beside the table
            missing[name] = f"{type(error).__name__}: {str(error).splitlines()[0]}"
    return loaded, missing


def main() -> None:
    """Evaluate, then print the Markdown tables (or JSON) and the tokenizers left out."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=300, help="lines per corpus (default 300)")
    parser.add_argument("--html", type=Path, help="also write the report page")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    texts = sample_texts(args.lines)
    tokenizers, missing = load_all()
    evaluation = evaluate(tokenizers, texts)
    if args.html:
        args.html.write_text(evaluation.to_html(), "utf-8")
    if args.json:
        print(json.dumps({**evaluation.to_dict(), "missing": missing}, ensure_ascii=False))
        return
    print(f"{len(texts)} texts, {sum(map(len, texts)):,} characters\n")
    print(markdown_table(evaluation))
    print("\ntokens per character by script:\n")
    print(markdown_by_script(evaluation))
    for name, reason in missing.items():
        print(f"\nnot evaluated: {name}: {reason}")


if __name__ == "__main__":
    main()
