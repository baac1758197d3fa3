"""`hfcompat demo`: parity with every official library on the bundled fixture, end to end."""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..errors import HfcompatError
from ..formats import load
from ..tools.train import train
from ..tools.verify import official_tokenizer, verify
from .options import InputError, clip, load_tokenizer
from .tokens import CONVERSION_TARGETS

REPO = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parents[1] / "data" / "multilingual.txt"  # package data (fixtures/ links to it)
IN_CHECKOUT = (REPO / "pyproject.toml").is_file()  # run from a source checkout, not an installed wheel
DEFAULT_SHARED = REPO.parent / "shared" if IN_CHECKOUT else None
SAMPLE = "hfcompat reads tokenizer.json: Hello, how are  you? 你好, 東京 🤗"


def add_commands(commands: Any) -> None:
    """The demo subcommand."""
    demo = commands.add_parser("demo", help="prove parity with the official libraries on the bundled fixture")
    demo.add_argument("--shared", type=Path, default=DEFAULT_SHARED,
                      help="directory holding refs/ (default: ../shared beside the repository)")
    demo.set_defaults(handler=cmd_demo)


@dataclass(frozen=True)
class DemoRef:
    """A reference tokenizer of ../shared/refs used by the demo."""

    name: str
    path: str  # relative to refs/


DEMO_REFS = [
    DemoRef("gpt2", "gpt2/tokenizer.json"),
    DemoRef("roberta-base", "roberta-base/tokenizer.json"),
    DemoRef("bert-base-uncased", "bert-base-uncased/vocab.txt"),
    DemoRef("t5", "t5/tokenizer.json"),
    DemoRef("phi-3-mini", "phi-3-mini/tokenizer.json"),
    DemoRef("clip", "clip/tokenizer.json"),
]


@dataclass
class DemoRow:
    """What the demo found for one tokenizer."""

    name: str
    model: str = "-"
    lines: int = 0
    tokens: int = 0
    identical: int = 0
    compared: int = 0
    mb_per_s: float = 0.0
    problem: str = ""
    first_mismatch: str = ""
    notes: list[str] = field(default_factory=list)


@dataclass
class DemoCount:
    """Comparisons of one part of the demo."""

    identical: int = 0
    compared: int = 0
    failed: bool = False

    def add(self, other: "DemoCount") -> None:
        """Fold another part's counts into this one."""
        self.identical += other.identical
        self.compared += other.compared
        self.failed = self.failed or other.failed


def cmd_demo(args: argparse.Namespace) -> int:
    """`demo`: the references against `tokenizers` and AutoTokenizer, then each algorithm trained,
    saved in every format that holds it and checked in each format's own library."""
    lines = _fixture_lines()
    total = DemoCount()
    refs_dir = args.shared / "refs" if args.shared is not None else None
    loaded: dict[str, Any] = {}
    if refs_dir is not None and refs_dir.is_dir():
        count, loaded = _demo_references(refs_dir, lines)
        total.add(count)
    elif refs_dir is None:
        print("demo: no reference tokenizers to compare (pass --shared DIR: the directory holding refs/)")
    else:
        print(f"demo: {refs_dir} is absent, so there are no reference tokenizers to compare; "
              "put the shared data beside the repository (or pass --shared DIR)")
    total.add(_demo_transformers(loaded, lines))
    total.add(_demo_training(lines))
    print(f"\ndemo: {total.identical}/{total.compared} identical")
    return 1 if total.failed or total.identical != total.compared else 0


def _demo_references(refs_dir: Path, lines: list[str]) -> tuple[DemoCount, dict[str, Any]]:
    """Encode the fixture with hfcompat and `tokenizers` and count identical results."""
    oracle = _import_oracle()
    inputs: list[Any] = list(lines) + list(zip(lines, lines[1:]))
    print(f"demo: {FIXTURE.name}: {len(lines)} lines, each alone and each with the next as a pair "
          f"({len(inputs)} inputs)")
    if oracle is None:
        print("demo: `tokenizers` is not installed: encoding with hfcompat only, nothing compared")
    else:
        print(f"demo: identical = ids, offsets and decode(ids) equal to tokenizers {oracle.__version__}")
    print()
    rows: list[DemoRow] = []
    loaded: dict[str, Any] = {}
    for ref in DEMO_REFS:
        if (refs_dir / ref.path).exists():
            row, loaded[ref.name] = _demo_one(ref, refs_dir / ref.path, lines, inputs, oracle)
            rows.append(row)
    missing = [ref.name for ref in DEMO_REFS if not (refs_dir / ref.path).exists()]
    _print_demo_table(rows, oracle is not None)
    if missing:
        print(f"\nnot in {refs_dir}: {', '.join(missing)} (skipped)")
    for row in rows:
        for note in row.notes:
            print(f"note: {row.name}: {note}")
        if row.first_mismatch:
            print(f"first mismatch in {row.name}: {row.first_mismatch}")
    if loaded.get("gpt2") is not None:
        _print_sample(loaded["gpt2"])
    failed = any(r.problem for r in rows)
    if oracle is None:
        return DemoCount(failed=failed), loaded
    return DemoCount(sum(r.identical for r in rows), sum(r.compared for r in rows), failed), loaded


def _demo_transformers(loaded: dict[str, Any], lines: list[str]) -> DemoCount:
    """save_pretrained each reference, load the directory with AutoTokenizer, compare every line."""
    import tempfile
    count = DemoCount()
    tokenizers = {name: tok for name, tok in loaded.items() if tok is not None}
    if not tokenizers or not _importable("transformers"):
        print("\ntransformers: not installed or no reference loaded; AutoTokenizer part skipped")
        return count
    print("\nsave_pretrained -> transformers.AutoTokenizer (ids and decode(ids) of every line):")
    with tempfile.TemporaryDirectory(prefix="hfcompat-demo-") as scratch:
        for name, tokenizer in tokenizers.items():
            directory = Path(scratch) / name
            tokenizer.save_pretrained(str(directory))
            report = verify(tokenizer, lines, against="transformers", reference=directory)
            count.add(DemoCount(report.identical, report.total))
            print(f"  {name:<20} {report.summary()}")
            for divergence in report.first_divergences[:1]:
                print(clip(divergence.describe(), 600))
    return count


DEMO_ALGORITHMS = ("bpe", "bytelevel_bpe", "wordpiece", "unigram", "sentencepiece_bpe", "wordlevel")
DEMO_VOCAB_SIZE = 1000  # the fixture holds 429 distinct characters


def _demo_training(lines: list[str]) -> DemoCount:
    """Train each algorithm on the fixture, save it in every format and verify each in its library."""
    import tempfile
    count = DemoCount()
    print(f"\ntrained on {FIXTURE.name} (vocab {DEMO_VOCAB_SIZE}), saved, reloaded by each format's library:")
    table = [("algorithm", *CONVERSION_TARGETS)]
    problems = []
    with tempfile.TemporaryDirectory(prefix="hfcompat-demo-") as scratch:
        for algorithm in DEMO_ALGORITHMS:
            cells = [algorithm]
            try:
                tokenizer = train(iter(lines), model=algorithm, vocab_size=DEMO_VOCAB_SIZE, show_progress=False)
            except Exception as error:  # noqa: BLE001 - a failed training is a row of the table
                table.append((algorithm, *("FAILED" for _ in CONVERSION_TARGETS)))
                problems.append(f"{algorithm}: training failed: {error}")
                count.failed = True
                continue
            for name in CONVERSION_TARGETS.values():
                cells.append(_demo_target(tokenizer, Path(scratch) / algorithm / name, lines, count, verify))
            table.append(tuple(cells))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    print("  (-: the format cannot hold this tokenizer exactly; hfcompat refuses the conversion, and\n"
          "   exact=False would write the nearest file: for the sentencepiece setups, a tokenizer.json whose\n"
          "   Precompiled normalizes per grapheme cluster where sentencepiece takes the longest match)")
    print("  (*: the trained tokenizer itself against the file in its library, where the two differ)")
    for problem in problems:
        print(f"  {problem}")
    return count


def _demo_target(tokenizer: Any, path: Path, lines: list[str], count: DemoCount, verify: Any) -> str:
    """Save to one target, read it back, and verify that against its own library; the table cell.

    The file is compared, not only the tokenizer it came from: where the two differ (a conversion
    that should have been refused) the cell also shows the trained tokenizer's own count.
    """
    try:
        tokenizer.save(str(path))
    except HfcompatError:
        return "-"
    saved = load(path)  # a rank file is read back with the pattern of its sidecar
    report = verify(saved, lines, reference=path)
    count.add(DemoCount(report.identical, report.total))
    cell = report.summary().replace(" identical", "")
    if saved is not tokenizer:  # say so when the file behaves other than the tokenizer it came from
        direct = verify(tokenizer, lines, reference=path)
        if not direct.ok:
            cell += f" ({direct.identical}/{direct.total} as trained*)"
    return cell


def _importable(module: str) -> bool:
    """True when a module can be imported."""
    import importlib.util
    return importlib.util.find_spec(module) is not None


def _fixture_lines() -> list[str]:
    """The fixture's lines, split on "\\n" only so that "\\r" stays in its line."""
    if not FIXTURE.exists():
        raise InputError(f"{FIXTURE}: the bundled fixture is missing (the installation lacks hfcompat's package data)")
    lines = FIXTURE.read_bytes().decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _import_oracle() -> Any:
    """The `tokenizers` module, or None when it is not installed."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        import tokenizers
    except ImportError:
        return None
    return tokenizers


def _whole_inputs(tokenizer: Any) -> list[str]:
    """Turn off a saved truncation/padding so whole inputs are compared; say what was turned off."""
    notes = []
    if tokenizer.truncation is not None:
        tokenizer.no_truncation()
        notes.append("truncation")
    if tokenizer.padding is not None:
        tokenizer.no_padding()
        notes.append("padding")
    return notes


def _demo_one(ref: DemoRef, path: Path, lines: list[str], inputs: list[Any],
              oracle: Any) -> tuple[DemoRow, Any]:
    """Load one reference with both libraries, compare every input and time hfcompat.

    Returns the row and hfcompat's tokenizer (None when it could not be loaded).
    """
    row = DemoRow(ref.name, lines=len(lines))
    try:
        ours = load_tokenizer(str(path))
    except HfcompatError as error:
        row.problem = f"hfcompat cannot load it: {error}"
        row.compared = len(inputs) if oracle is not None else 0  # counted as not identical
        return row, None
    row.model = type(ours.model).__name__
    turned_off = _whole_inputs(ours)
    theirs = None
    if oracle is not None:
        theirs = official_tokenizer(path)
        _whole_inputs(theirs)
    if turned_off:
        row.notes.append(f"its saved {' and '.join(turned_off)} is turned off on both sides")
    encodings = [_attempt(ours.encode, *_as_args(item)) for item in inputs]
    row.tokens = sum(len(e.ids) for e in encodings if not isinstance(e, Exception))
    if theirs is not None:
        _compare(row, ours, theirs, inputs, encodings)
    elif any(isinstance(e, Exception) for e in encodings):
        row.problem = "hfcompat raised on some inputs"
    row.mb_per_s = _throughput(ours, inputs)
    return row, ours


def _as_args(item: Any) -> tuple:
    """encode's positional arguments for a line or a pair."""
    return item if isinstance(item, tuple) else (item,)


def _attempt(fn: Callable[..., Any], *args: Any) -> Any:
    """fn(*args), or the exception it raised (an exception is a result to compare)."""
    try:
        return fn(*args)
    except Exception as error:  # noqa: BLE001 - compared with the oracle's behaviour
        return error


def _compare(row: DemoRow, ours: Any, theirs: Any, inputs: list[Any], encodings: list[Any]) -> None:
    """Count the inputs on which ids, offsets and decoded text all agree."""
    for item, mine in zip(inputs, encodings):
        expected = _attempt(theirs.encode, *_as_args(item))
        row.compared += 1
        difference = _difference(ours, theirs, expected, mine)
        if difference is None:
            row.identical += 1
        elif not row.first_mismatch:
            row.first_mismatch = clip(f"{difference} on {item!r}")


def _difference(ours: Any, theirs: Any, expected: Any, actual: Any) -> str | None:
    """What differs between two results (None when nothing does)."""
    if isinstance(expected, Exception) or isinstance(actual, Exception):
        if isinstance(expected, Exception) and isinstance(actual, Exception) and str(expected) in str(actual):
            return None
        return f"tokenizers: {_outcome(expected)}; hfcompat: {_outcome(actual)}"
    if list(expected.ids) != list(actual.ids):
        return f"ids {list(expected.ids)} != {list(actual.ids)}"
    if [tuple(o) for o in expected.offsets] != [tuple(o) for o in actual.offsets]:
        return f"offsets {list(expected.offsets)} != {list(actual.offsets)}"
    ids = list(expected.ids)
    want, got = _attempt(theirs.decode, ids), _attempt(ours.decode, ids)
    if str(want) != str(got) or isinstance(got, Exception) != isinstance(want, Exception):
        return f"decode {want!r} != {got!r}"
    return None


def _outcome(result: Any) -> str:
    """Short text for an encoding or an exception."""
    if isinstance(result, Exception):
        return f"raises {type(result).__name__}: {result}"
    return f"{len(result.ids)} tokens"


def _throughput(tokenizer: Any, inputs: list[Any]) -> float:
    """MB/s of UTF-8 input for one warm pass of `encode` over the inputs."""
    size = sum(len(part.encode("utf-8")) for item in inputs for part in _as_args(item))
    start = time.perf_counter()
    for item in inputs:
        _attempt(tokenizer.encode, *_as_args(item))
    elapsed = time.perf_counter() - start
    return size / 1e6 / elapsed if elapsed > 0 else float("inf")


def _print_demo_table(rows: list[DemoRow], compared: bool) -> None:
    """The aligned result table of the demo."""
    header = ("tokenizer", "model", "lines", "tokens", "identical", "hfcompat MB/s")
    table = [header]
    for r in rows:
        if r.problem:
            failed = f"0/{r.compared} FAILED" if r.compared else "FAILED"
            table.append((r.name, r.model, str(r.lines), "-", failed, "-"))
            continue
        identical = f"{r.identical}/{r.compared}" if compared else "n/a"
        table.append((r.name, r.model, str(r.lines), str(r.tokens), identical, f"{r.mb_per_s:.2f}"))
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for i, row in enumerate(table):
        cells = [c.ljust(w) if j < 2 else c.rjust(w) for j, (c, w) in enumerate(zip(row, widths))]
        print("  ".join(cells).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    for r in rows:
        if r.problem:
            print(f"{r.name}: {r.problem}")


def _print_sample(gpt2: Any) -> None:
    """Encode one sentence with GPT-2 and show its tokens."""
    encoding = gpt2.encode(SAMPLE)
    print(f"\nGPT-2 on {SAMPLE!r}:")
    print("tokens:", json.dumps(list(encoding.tokens), ensure_ascii=False))
    print("ids:   ", json.dumps(list(encoding.ids)))
