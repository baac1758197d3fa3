"""Replay a fuzz corpus through the harness's check, under coverage.py, and report the lines of
hfcompat's readers it reached: `python fuzz/replay.py KIND [corpus_dir]` (KIND as a target's
first kind: gpt2.json, llama.model, r50k.tiktoken, tekken.json, llama.gguf, vocab.txt, vocab.json).

A failing input is reported with its error (the fuzz target stops at the first; this goes on).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import coverage

REPO = Path(__file__).resolve().parents[1]
COMMON = ["hfcompat/formats/load.py", "hfcompat/formats/detect.py"]
# The modules that read each kind's files (the report's rows).
READERS = {
    "gpt2.json": ["hfcompat/formats/tokenizer_json.py", "hfcompat/pipeline/json_numbers.py"],
    "llama.model": ["hfcompat/formats/sentencepiece/read.py", "hfcompat/normalizers/charsmap.py"],
    "r50k.tiktoken": ["hfcompat/formats/tiktoken/ranks.py", "hfcompat/formats/tiktoken/merges.py"],
    "tekken.json": ["hfcompat/formats/tekken.py", "hfcompat/formats/tiktoken/ranks.py"],
    "llama.gguf": ["hfcompat/formats/gguf/read.py"],
    "vocab.txt": ["hfcompat/models/vocab_files.py", "hfcompat/formats/transformers/pretrained.py"],
    "vocab.json": ["hfcompat/models/vocab_files.py", "hfcompat/formats/transformers/pretrained.py"],
}


def replay(kind: str, corpus: Path) -> int:
    """Check every input of the corpus; return how many failed."""
    import owner_outcomes
    from harness import files_of

    scratch = Path(tempfile.mkdtemp(prefix="hfcompat-replay-"))
    failures = 0
    for item in sorted(corpus.iterdir()):
        try:
            owner_outcomes.check_outcome(kind, files_of(kind, item.read_bytes()), scratch)
        except Exception as error:  # noqa: BLE001 - each failure is reported, the replay goes on
            failures += 1
            print(f"{item.name}: {type(error).__name__}: {str(error)[:200]}")
    return failures


def main() -> None:
    """Replay under coverage; print the readers' coverage."""
    kind = sys.argv[1]
    corpus = Path(sys.argv[2]) if len(sys.argv) > 2 else REPO / "fuzz" / "corpus" / kind
    sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "fuzz")]
    measure = coverage.Coverage(data_file=None, include=[str(REPO / name) for name in READERS[kind] + COMMON])
    measure.start()
    failures = replay(kind, corpus)
    measure.stop()
    print(f"{kind}: {sum(1 for _ in corpus.iterdir())} inputs, {failures} failed")
    measure.report(skip_covered=False, skip_empty=True, sort="cover")


if __name__ == "__main__":
    main()
