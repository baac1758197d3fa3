"""The `hfcompat` command: encode, decode, inspect and a parity demo on the bundled fixture."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, NoReturn, Sequence

from .cli_explore import add_commands as add_explore_commands
from .cli_options import CliError, add_load_options, load_options, load_tokenizer, read_corpus
from .errors import HfcompatError
from .verify import LIBRARIES

PROG = "hfcompat"
REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "fixtures" / "multilingual.txt"
DEFAULT_SHARED = REPO.parent / "shared"
ADDED_SHOWN = 5  # added tokens listed by `inspect`
SAMPLE = "hfcompat reads tokenizer.json: Hello, how are  you? 你好, 東京 🤗"


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Entry point of the console script and of `python -m hfcompat`: exits with the code."""
    sys.exit(run(argv))


def run(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, run the subcommand and return its exit code."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # a token the terminal cannot show must not crash
            stream.reconfigure(errors="backslashreplace")
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (HfcompatError, CliError) as error:
        return _fail(str(error))
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""
        return _fail(f"{where}{error.strerror or error}")
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


def _fail(message: str) -> int:
    """Print one error line (no traceback) and return the usage-error code."""
    first_line = message.strip().splitlines()[0] if message.strip() else "unknown error"
    print(f"{PROG}: error: {first_line}", file=sys.stderr)
    return 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subparser per command."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Pure-Python tokenizers, token-for-token identical to HF tokenizers.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    encode = commands.add_parser("encode", help="encode a text and print its tokens and ids")
    encode.add_argument("tokenizer", metavar="TOK", help="tokenizer.json, vocab.txt, vocab.json or a directory")
    encode.add_argument("text", metavar="TEXT")
    encode.add_argument("--pair", metavar="TEXT", help="second sequence of a pair")
    encode.add_argument("--no-special", action="store_true", help="do not add special tokens")
    encode.add_argument("--json", action="store_true", help="print ids, tokens and offsets as JSON")
    encode.add_argument("--show", action="store_true", help="also show the tokens over the text in colour")
    add_load_options(encode)
    encode.set_defaults(handler=cmd_encode)

    decode = commands.add_parser("decode", help="decode ids back into text")
    decode.add_argument("tokenizer", metavar="TOK")
    decode.add_argument("ids", metavar="ID", type=int, nargs="+")
    decode.add_argument("--keep-special", action="store_true", help="keep special tokens in the text")
    add_load_options(decode)
    decode.set_defaults(handler=cmd_decode)

    inspect = commands.add_parser("inspect", help="show a tokenizer's components and vocabulary")
    inspect.add_argument("tokenizer", metavar="TOK")
    inspect.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_load_options(inspect)
    inspect.set_defaults(handler=cmd_inspect)

    convert = commands.add_parser("convert", help="convert a tokenizer to another format, exactly or not at all")
    convert.add_argument("source", metavar="SRC", help="any file or directory hfcompat reads")
    convert.add_argument("destination", metavar="DST",
                         help="tokenizer.json, .model, .tiktoken, or a directory (transformers)")
    convert.add_argument("--check", metavar="CORPUS", type=Path,
                         help="then verify DST (in its own library) against SRC (in its own) on this corpus")
    add_load_options(convert)
    convert.set_defaults(handler=cmd_convert)

    verify = commands.add_parser("verify", help="compare hfcompat (or a converted file) with the official library")
    verify.add_argument("tokenizer", metavar="PATH")
    verify.add_argument("--corpus", metavar="FILE", type=Path, required=True, help="UTF-8 text, one input per line")
    verify.add_argument("--reference", metavar="ORIGINAL",
                        help="compare PATH in its own library with ORIGINAL in its own (a conversion)")
    verify.add_argument("--against", default="auto", choices=("auto",) + LIBRARIES,
                        help="the reference library (default: the owner of the file's format)")
    verify.add_argument("--no-special", action="store_true", help="encode without special tokens")
    verify.add_argument("--show", metavar="N", type=int, default=3, help="divergences to print (default 3)")
    verify.add_argument("--json", action="store_true", help="print the report as JSON before the last line")
    verify.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress bar on stderr (default: when stderr is a terminal)")
    add_load_options(verify)
    verify.set_defaults(handler=cmd_verify)

    train = commands.add_parser("train", help="train a tokenizer on text files and save it")
    train.add_argument("files", metavar="FILE", nargs="+", help="UTF-8 text files, read line by line")
    train.add_argument("-o", "--output", required=True, help="where to save (.json: tokenizer.json)")
    train.add_argument("--model", default="bpe", choices=["bpe", "bytelevel_bpe", "wordpiece", "wordlevel",
                                                         "unigram", "sentencepiece_bpe"])
    train.add_argument("--vocab-size", type=int, default=8000)
    train.add_argument("--min-frequency", type=int, default=0)
    train.add_argument("--special-tokens", nargs="*", metavar="TOKEN", help="default: the model's usual ones")
    train.add_argument("--workers", type=int, default=1, help="processes that count words")
    train.add_argument("--quiet", action="store_true", help="no progress bars")
    train.set_defaults(handler=cmd_train)

    demo = commands.add_parser("demo", help="prove parity with the official libraries on the bundled fixture")
    demo.add_argument("--shared", type=Path, default=DEFAULT_SHARED,
                      help="directory holding refs/ (default: ../shared beside the repository)")
    demo.set_defaults(handler=cmd_demo)

    segment = commands.add_parser("segment", help="Chinese word segmentation of a file, or --score GOLD PRED")
    segment.add_argument("files", metavar="FILE", nargs="+", help="text to cut (with --score: GOLD PRED)")
    segment.add_argument("--method", default="dag", help="fmm, bmm, bidirectional, dag, shortest, char, char_bigram")
    segment.add_argument("--dict", metavar="PATH", help="jieba-format dictionary or word list (default: jieba's)")
    segment.add_argument("--hmm", action="store_true", help="cut unknown words with jieba's HMM")
    segment.add_argument("--sep", default="  ", help="word separator of the output (default: two spaces)")
    segment.add_argument("--score", action="store_true", help="score PRED against GOLD (SIGHAN measures)")
    segment.set_defaults(handler=cmd_segment)
    add_explore_commands(commands)
    return parser


# ---------------------------------------------------------------- encode / decode


def cmd_encode(args: argparse.Namespace) -> int:
    """`encode`: tokens and ids of a text (or a pair)."""
    tokenizer = load_tokenizer(args.tokenizer, args)
    encoding = tokenizer.encode(args.text, args.pair, add_special_tokens=not args.no_special)
    if args.json:
        data = {"ids": list(encoding.ids), "tokens": list(encoding.tokens),
                "offsets": [list(o) for o in encoding.offsets]}
        print(json.dumps(data, ensure_ascii=False))
    else:
        print("tokens:", json.dumps(list(encoding.tokens), ensure_ascii=False))
        print("ids:   ", json.dumps(list(encoding.ids)))
    if args.show:
        from .viz import ansi, encode_for_view, is_byte_level
        print(ansi(args.text, encode_for_view(tokenizer, args.text), is_byte_level(tokenizer)))
    return 0


def cmd_decode(args: argparse.Namespace) -> int:
    """`decode`: the text of a list of ids."""
    tokenizer = load_tokenizer(args.tokenizer, args)
    print(tokenizer.decode(args.ids, skip_special_tokens=not args.keep_special))
    return 0


# ---------------------------------------------------------------- segment


def cmd_segment(args: argparse.Namespace) -> int:
    """`segment`: print each line of FILE cut into words, or score a segmentation (--score GOLD PRED)."""
    from .segmentation import Dictionary, Segmenter, score

    if args.score:
        if len(args.files) != 2:
            raise CliError("--score needs two files: GOLD PRED")
        gold, predicted = (Path(f).read_text(encoding="utf-8").splitlines() for f in args.files)
        known = Dictionary.load(args.dict).freq if args.dict else {}
        print(score(gold, predicted, (w for w, f in known.items() if f)).summary())
        return 0
    try:
        dictionary = Dictionary.load(args.dict) if args.dict else None
        segmenter = Segmenter(dictionary, method=args.method, hmm=args.hmm)
    except (ValueError, ModuleNotFoundError) as error:
        raise CliError(str(error)) from None
    for name in args.files:
        for line in Path(name).read_text(encoding="utf-8").splitlines():
            print(args.sep.join(word for word in segmenter.cut(line) if not word.isspace()))
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    """`train`: hfcompat.train on files, then save; Ctrl-C stops without writing anything."""
    from .trainers import train
    options: dict[str, Any] = {}
    if args.model != "unigram":
        options["min_frequency"] = args.min_frequency
    try:
        tokenizer = train([Path(f) for f in args.files], model=args.model, vocab_size=args.vocab_size,
                          special_tokens=args.special_tokens, workers=args.workers,
                          show_progress=not args.quiet, **options)
    except KeyboardInterrupt:
        print(f"{PROG}: training interrupted, nothing written", file=sys.stderr)
        return 130
    tokenizer.save(args.output)
    print(f"{args.output}: {args.model}, {tokenizer.get_vocab_size()} tokens")
    return 0


# ---------------------------------------------------------------- convert / verify


def cmd_convert(args: argparse.Namespace) -> int:
    """`convert`: load SRC, save DST (refused with the reason when not exact), optionally check it."""
    from .convert import convert
    tokenizer = convert(args.source, args.destination, **load_options(args))
    print(f"wrote {args.destination} ({type(tokenizer.model).__name__}, "
          f"{tokenizer.get_vocab_size()} tokens)")
    if args.check is None:
        return 0
    from .verify import verify
    report = verify(args.destination, read_corpus(args.check), reference=args.source,
                    progress=_progress(None), **load_options(args))
    _print_divergences(report, 3)
    print(report.summary())
    return 0 if report.ok else 1


def cmd_verify(args: argparse.Namespace) -> int:
    """`verify`: every corpus line on both sides; exit 1 on any mismatch; last line "N/N identical"."""
    from .verify import verify
    report = verify(args.tokenizer, read_corpus(args.corpus), against=args.against, reference=args.reference,
                    add_special_tokens=not args.no_special, keep=max(args.show, 1),
                    progress=_progress(args.progress), **load_options(args))
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(f"subject:   {report.subject}  {report.subject_mb_per_s:.3f} MB/s")
        print(f"reference: {report.reference}  {report.reference_mb_per_s:.3f} MB/s")
        _print_divergences(report, args.show)
    print(report.summary())
    return 0 if report.ok else 1


def _print_divergences(report: Any, limit: int) -> None:
    """The first divergences of a report, a few lines each."""
    for divergence in report.first_divergences[:limit]:
        print(_clip(divergence.describe(), 1200))
    if report.mismatches > limit:
        print(f"... {report.mismatches - limit} more texts differ")


def _progress(asked: bool | None) -> bool:
    """Show a progress bar: as asked, else when stderr is a terminal."""
    return sys.stderr.isatty() if asked is None else asked
    return 0


# ---------------------------------------------------------------- inspect


def cmd_inspect(args: argparse.Namespace) -> int:
    """`inspect`: format, model, vocabulary size, components, added tokens, and what it converts to."""
    tokenizer = load_tokenizer(args.tokenizer, args)
    summary = {"format": file_format(Path(args.tokenizer)), **summarize(tokenizer),
               "converts_to": conversion_targets(tokenizer)}
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
        return 0
    added = summary["added_tokens"]
    shown = ", ".join(f"{t['content']!r}={t['id']}" + (" (special)" if t["special"] else "")
                      for t in summary["first_added_tokens"])
    more = f", ... {added - ADDED_SHOWN} more" if added > ADDED_SHOWN else ""
    targets = "; ".join(f"{target}: {'yes' if verdict is True else 'no (' + verdict + ')'}"
                        for target, verdict in summary["converts_to"].items())
    rows = [
        ("format", summary["format"]),
        ("model", summary["model"]),
        ("vocab size", f"{summary['vocab_size']} ({summary['vocab_size_with_added']} with added tokens)"),
        ("normalizer", summary["normalizer"]),
        ("pre-tokenizer", summary["pre_tokenizer"]),
        ("post-processor", summary["post_processor"]),
        ("decoder", summary["decoder"]),
        ("added tokens", f"{added} ({summary['special_tokens']} special)" + (f": {shown}{more}" if added else "")),
        ("converts to", targets),
    ]
    for label, value in rows:
        print(f"{label + ':':<16}{value}")
    return 0


# target -> file name written by `conversion_targets` (its suffix picks the writer)
CONVERSION_TARGETS = {"tokenizer.json": "tokenizer.json", "transformers directory": "pretrained",
                      "SentencePiece .model": "tokenizer.model", "tiktoken": "ranks.tiktoken"}


def file_format(path: Path) -> str:
    """What kind of tokenizer file (or directory) a path is."""
    if path.is_dir():
        config = path / "tokenizer_config.json"
        if config.is_file():
            try:
                name = json.loads(config.read_text(encoding="utf-8")).get("tokenizer_class")
            except (ValueError, UnicodeDecodeError):
                name = None
            return f"transformers directory ({name or 'no tokenizer_class'})"
        return "directory"
    if path.suffix == ".model":
        return "SentencePiece model"
    if path.suffix == ".tiktoken":
        return "tiktoken ranks"
    if path.name == "vocab.json" or path.name == "merges.txt":
        return "BPE vocab.json + merges.txt"
    if path.suffix == ".txt":
        return "WordPiece vocab.txt"
    return "tokenizer.json"


def conversion_targets(tokenizer: Any) -> dict[str, Any]:
    """Each target format -> True, or the reason it cannot hold this tokenizer exactly.

    Found by writing each target into a temporary directory: the writers own the rules.
    """
    import tempfile
    verdicts: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="hfcompat-inspect-") as scratch:
        for target, name in CONVERSION_TARGETS.items():
            try:
                tokenizer.save(str(Path(scratch) / name))
                verdicts[target] = True
            except HfcompatError as error:
                verdicts[target] = str(getattr(error, "message", error)).splitlines()[0]
    return verdicts


def summarize(tokenizer: Any) -> dict[str, Any]:
    """The facts `inspect` prints, as a JSON-ready dict."""
    added = sorted(tokenizer.get_added_tokens_decoder().items())
    return {
        "model": type(tokenizer.model).__name__,
        "vocab_size": tokenizer.get_vocab_size(with_added_tokens=False),
        "vocab_size_with_added": tokenizer.get_vocab_size(with_added_tokens=True),
        "normalizer": describe(tokenizer.normalizer),
        "pre_tokenizer": describe(tokenizer.pre_tokenizer),
        "post_processor": describe(tokenizer.post_processor),
        "decoder": describe(tokenizer.decoder),
        "added_tokens": len(added),
        "special_tokens": sum(1 for _, token in added if token.special),
        "first_added_tokens": [{"id": token_id, "content": token.content, "special": token.special}
                               for token_id, token in added[:ADDED_SHOWN]],
    }


def describe(component: Any) -> str:
    """A component's type, with the members of a Sequence: "Sequence[NFD, Lowercase]"."""
    if component is None:
        return "none"
    return _describe_dict(component.to_dict())


def _describe_dict(data: dict[str, Any]) -> str:
    """The "type" of a component dict, recursing into a list of sub-components."""
    name = str(data.get("type", "?"))
    for value in data.values():
        if isinstance(value, list) and value and all(isinstance(v, dict) and "type" in v for v in value):
            return f"{name}[{', '.join(_describe_dict(v) for v in value)}]"
    return name


# ---------------------------------------------------------------- demo


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
    refs_dir = args.shared / "refs"
    loaded: dict[str, Any] = {}
    if refs_dir.is_dir():
        count, loaded = _demo_references(refs_dir, lines)
        total.add(count)
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
    from .verify import verify
    print("\nsave_pretrained -> transformers.AutoTokenizer (ids and decode(ids) of every line):")
    with tempfile.TemporaryDirectory(prefix="hfcompat-demo-") as scratch:
        for name, tokenizer in tokenizers.items():
            directory = Path(scratch) / name
            tokenizer.save_pretrained(str(directory))
            report = verify(tokenizer, lines, against="transformers", reference=directory)
            count.add(DemoCount(report.identical, report.total))
            print(f"  {name:<20} {report.summary()}")
            for divergence in report.first_divergences[:1]:
                print(_clip(divergence.describe(), 600))
    return count


DEMO_ALGORITHMS = ("bpe", "bytelevel_bpe", "wordpiece", "unigram", "sentencepiece_bpe", "wordlevel")
DEMO_VOCAB_SIZE = 1000  # the fixture holds 429 distinct characters


def _demo_training(lines: list[str]) -> DemoCount:
    """Train each algorithm on the fixture, save it in every format and verify each in its library."""
    import tempfile
    from .trainers import train
    from .verify import verify
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
            for target, name in CONVERSION_TARGETS.items():
                cells.append(_demo_target(tokenizer, Path(scratch) / algorithm / name, lines, count, verify))
            table.append(tuple(cells))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    print("  (-: the format cannot hold this tokenizer exactly; hfcompat refuses the conversion)")
    print("  (*: the trained tokenizer itself against the file in its library; for the sentencepiece setups,\n"
          "   tokenizers' Precompiled normalizes per grapheme cluster where sentencepiece takes the longest match)")
    for problem in problems:
        print(f"  {problem}")
    return count


def _demo_target(tokenizer: Any, path: Path, lines: list[str], count: DemoCount, verify: Any) -> str:
    """Save to one target, read it back, and verify that against its own library; the table cell.

    The file is compared, not only the tokenizer it came from: a trained "unigram" follows
    sentencepiece's longest-match charsmap, which tokenizer.json can only state as HF's
    per-cluster `Precompiled`; the cell then also shows the trained tokenizer's own count.
    """
    from .load import load
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
        raise CliError(f"{FIXTURE}: the bundled fixture is missing (run the demo from a source checkout)")
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


def _oracle_for(oracle: Any, path: Path) -> Any:
    """The official tokenizer for a reference file (BertWordPieceTokenizer for a vocab.txt)."""
    if path.name == "vocab.txt":
        from tokenizers.implementations import BertWordPieceTokenizer
        tokenizer = BertWordPieceTokenizer(str(path), lowercase=True)
    else:
        tokenizer = oracle.Tokenizer.from_file(str(path))
    return tokenizer


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
        theirs = _oracle_for(oracle, path)
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
            row.first_mismatch = _clip(f"{difference} on {item!r}")


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


def _clip(text: str, limit: int = 400) -> str:
    """text cut to about `limit` characters, keeping both ends."""
    return text if len(text) <= limit else f"{text[: limit - 80]} ... {text[-60:]}"


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
