"""The atheris harness every fuzz target shares: one reader, seeded with small real files.

A target names the reader (its kinds in tests/owner_outcomes.py) and calls `main`. Each input is
written as the reader's file (a vocab.json + merges.txt input holds both, split at SEPARATOR)
and checked with the test suite's rule (`owner_outcomes.check_outcome`): hfcompat refuses it
with a documented error, or loads it as the owner library does. Anything else is a crash that
atheris reports and saves (crash-<sha1> in the working directory).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]
SEPARATOR = b"\n\0merges.txt\0\n"


def files_of(kind_name: str, data: bytes) -> dict[str, bytes]:
    """The reader's files from one fuzz input."""
    import owner_outcomes

    names = list(owner_outcomes.KINDS[kind_name].files())
    if len(names) == 1:
        return {names[0]: data}
    first, _, second = data.partition(SEPARATOR)
    return {names[0]: first, names[1]: second}


def seed_input(kind_name: str) -> bytes:
    """One seed: the kind's small real file(s) as a single input."""
    import owner_outcomes

    return SEPARATOR.join(owner_outcomes.KINDS[kind_name].files().values())


def write_seeds(kinds: list[str], corpus: Path) -> None:
    """Put the seeds in the corpus directory (atheris adds what it finds there)."""
    corpus.mkdir(parents=True, exist_ok=True)
    for name in kinds:
        (corpus / f"seed-{name}").write_bytes(seed_input(name))


def main(kinds: list[str]) -> None:
    """Fuzz the reader of `kinds` (the first decides how an input is read; the others seed it):
    `python fuzz/fuzz_X.py [corpus_dir] [libFuzzer options]`."""
    import atheris

    with atheris.instrument_imports(include=["hfcompat"]):
        import hfcompat  # noqa: F401  (instrumented before anything imports it: coverage-guided)
    import owner_outcomes

    corpus = Path(next((arg for arg in sys.argv[1:] if not arg.startswith("-")), f"fuzz/corpus/{kinds[0]}"))
    write_seeds(kinds, corpus)
    longest = max(len(seed_input(name)) for name in kinds)
    scratch = Path(tempfile.mkdtemp(prefix="hfcompat-fuzz-"))

    def test_one_input(data: bytes) -> None:
        owner_outcomes.check_outcome(kinds[0], files_of(kinds[0], data), scratch)

    arguments = [sys.argv[0], *[arg for arg in sys.argv[1:] if arg.startswith("-")], str(corpus)]
    if not any(arg.startswith("-max_len") for arg in arguments):
        arguments.insert(1, f"-max_len={2 * longest}")
    if not any(arg.startswith("-artifact_prefix") for arg in arguments):
        (REPO / "fuzz" / "artifacts").mkdir(exist_ok=True)
        arguments.insert(1, f"-artifact_prefix={REPO / 'fuzz' / 'artifacts'}/{kinds[0]}-")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    atheris.Setup(arguments, test_one_input)
    atheris.Fuzz()
