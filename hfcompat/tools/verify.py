"""`hfcompat.verify`: encode texts on two sides and report every difference, and the speed of each.

A side is hfcompat itself or an official library running a file it owns: `tokenizers`
(tokenizer.json), `sentencepiece` (.model), `tiktoken` (.tiktoken), `mistral-common` (tekken.json)
or `transformers` (a directory AutoTokenizer loads); for a GGUF, the ids llama.cpp's tests record
beside it (`llama.cpp-tests`: X.gguf.inp and X.gguf.out), its texts being the built-in corpus. `verify(tok, texts)` checks hfcompat against the owner library of the file;
`verify(converted, texts, reference=original)` checks a conversion: each file in its own library.
The official libraries are imported here only, when asked; the core never calls them.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ..errors import FormatError, import_optional
from ..formats.detect import DIRECTORY, detect_format
from ..formats.load import load
from ..formats.tiktoken.ranks import rank_file_spec
from ..tokenizer import Tokenizer

LIBRARIES = ("tokenizers", "sentencepiece", "tiktoken", "transformers", "mistral-common", "llama.cpp-tests")
# llama.cpp's tokenizer tests: X.gguf.inp holds texts between separator lines, X.gguf.out the ids the
# original Hugging Face tokenizer gives each (what llama.cpp's own tokenizer must give).
TEST_SEPARATOR = "\n__ggml_vocab_test__\n"
DIVERGENCES_KEPT = 5
# The library that owns each format `detect_format` tells apart (any other: tokenizers).
OWNERS = {DIRECTORY: "transformers", "tekken.json": "mistral-common", "gguf": "llama.cpp-tests",
          "sentencepiece": "sentencepiece", "tiktoken": "tiktoken"}
# Sides that never add special tokens, because the file they run holds no post-processor: both
# sides are then encoded without them (what the file could not say is not compared).
NO_POST_PROCESSOR = {
    "sentencepiece": "a SentencePiece model holds no post-processor",
    "tiktoken": "a tiktoken rank file holds no post-processor",
    "mistral-common": "a tekken.json holds no post-processor (Tekkenizer adds bos/eos only when asked)",
    "llama.cpp-tests": "llama.cpp's recorded ids have no special tokens added",
}
GGUF_SUBJECT_NOTE = ("the GGUF is read by hfcompat (no llama.cpp runs here; hfcompat's GGUF reader is held to the ids "
                     "llama.cpp's tests record)")

Piece = tuple[int, str]  # (id, the token's text) as the side shows it


@dataclass
class Divergence:
    """The first difference on one text: where the token sequences part, and both sequences."""

    text: str
    position: int  # index of the first differing token (or -1 when only the decoded text differs)
    expected: list[Piece]  # the reference's tokens
    actual: list[Piece]  # the subject's tokens
    expected_text: str | None = None  # decode(ids) on each side, when the ids agree but the text does not
    actual_text: str | None = None

    def describe(self, context: int = 3) -> str:
        """A few lines naming the text, the token index and the tokens around it on both sides."""
        if self.position < 0:
            return (f"text {self.text!r}: same ids, decoded differently:\n"
                    f"  reference {self.expected_text!r}\n  subject   {self.actual_text!r}")
        start = max(0, self.position - context)
        end = self.position + context + 1

        def show(pieces: list[Piece]) -> str:
            shown = " ".join(f"{piece!r}={token_id}" for token_id, piece in pieces[start:end])
            return ("... " if start else "") + shown + (" ..." if len(pieces) > end else "")

        return (f"text {self.text!r}: token {self.position} differs\n"
                f"  reference {show(self.expected)}\n  subject   {show(self.actual)}")


@dataclass
class VerifyReport:
    """What `verify` found: counts, the first divergences, and the throughput of both sides."""

    subject: str
    reference: str
    total: int = 0
    mismatches: int = 0
    first_divergences: list[Divergence] = field(default_factory=list)
    add_special_tokens: bool = True  # whether both sides were asked to add their special tokens
    notes: list[str] = field(default_factory=list)  # what the comparison left out, and why
    input_bytes: int = 0
    subject_seconds: float = 0.0
    reference_seconds: float = 0.0

    @property
    def identical(self) -> int:
        """Texts on which both sides agree."""
        return self.total - self.mismatches

    @property
    def ok(self) -> bool:
        """True when every text agrees."""
        return self.mismatches == 0

    @property
    def subject_mb_per_s(self) -> float:
        """Encoding throughput of the subject (MB of UTF-8 input per second)."""
        return _rate(self.input_bytes, self.subject_seconds)

    @property
    def reference_mb_per_s(self) -> float:
        """Encoding throughput of the reference."""
        return _rate(self.input_bytes, self.reference_seconds)

    def summary(self) -> str:
        """The closing line: "N/N identical"."""
        return f"{self.identical}/{self.total} identical"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (for `hfcompat verify --json`)."""
        return {
            "subject": self.subject, "reference": self.reference, "total": self.total,
            "identical": self.identical, "mismatches": self.mismatches,
            "add_special_tokens": self.add_special_tokens, "notes": list(self.notes),
            "subject_mb_per_s": round(self.subject_mb_per_s, 4),
            "reference_mb_per_s": round(self.reference_mb_per_s, 4),
            "first_divergences": [
                {"text": d.text, "position": d.position, "reference": [list(p) for p in d.expected],
                 "subject": [list(p) for p in d.actual], "reference_text": d.expected_text,
                 "subject_text": d.actual_text}
                for d in self.first_divergences],
        }


def _oracle(module: str) -> Any:
    """A reference library verify compares with, or MissingDependency naming the extra that installs them."""
    return import_optional(module, "verify", f"Comparing with {module.split('.')[0]}")


def _rate(size: int, seconds: float) -> float:
    """MB per second (0 when nothing was timed)."""
    return size / 1e6 / seconds if seconds > 0 else 0.0


# ---------------------------------------------------------------- sides


@dataclass
class Side:
    """One tokenizer under comparison: how it encodes to (id, piece) lists and decodes ids."""

    name: str
    encode: Callable[[str], list[Piece]]
    decode: Callable[[list[int]], str] | None  # None: the side has ids only (decoding not compared)
    notes: list[str] = field(default_factory=list)  # what this side left out of its file, and why


def hfcompat_side(tokenizer: Tokenizer, add_special_tokens: bool) -> Side:
    """hfcompat's own tokenizer (one read from a rank file matches every special token, as the
    tiktoken and tokenizers sides do; one read from a tekken.json none, as Tekkenizer)."""
    mode = tokenizer.tiktoken
    specials = {"allowed_special": "all"} if mode is not None and mode.disallowed_default == "all" else {}

    def encode(text: str) -> list[Piece]:
        encoding = tokenizer.encode(text, add_special_tokens=add_special_tokens, **specials)
        return list(zip(encoding.ids, encoding.tokens))

    return Side("hfcompat", encode, lambda ids: tokenizer.decode(ids, skip_special_tokens=False))


def tokenizers_side(source: str | Path | Tokenizer, add_special_tokens: bool, lowercase: bool = True,
                    format: str | None = None, whole_inputs: bool = False) -> Side:
    """HF `tokenizers` on a tokenizer.json (or on hfcompat's tokenizer written as one), or on the
    plain vocabulary files with the pipelines `tokenizers` builds for them (`format` as in `load`);
    `whole_inputs` turns off the file's truncation and padding (the other side's file holds none)."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    tokenizers = _oracle("tokenizers")

    if isinstance(source, Tokenizer):
        official = tokenizers.Tokenizer.from_str(source.to_str())
    else:
        official = official_tokenizer(Path(source), lowercase, format)
    notes = _whole_inputs(official) if whole_inputs else []

    def encode(text: str) -> list[Piece]:
        encoding = official.encode(text, add_special_tokens=add_special_tokens)
        return list(zip(encoding.ids, encoding.tokens))

    return Side(f"tokenizers {tokenizers.__version__}", encode,
                lambda ids: official.decode(ids, skip_special_tokens=False), notes)


def _whole_inputs(official: Any) -> list[str]:
    """Turn off a `tokenizers` tokenizer's truncation and padding; a note naming what was on."""
    dropped = []
    if official.truncation is not None:
        dropped.append(f"truncation (max_length {official.truncation['max_length']})")
        official.no_truncation()
    if official.padding is not None:
        dropped.append("padding")
        official.no_padding()
    if not dropped:
        return []
    return [f"the tokenizers side runs without its {' and '.join(dropped)}: the other file holds none"]


def official_tokenizer(path: Path, lowercase: bool = True, format: str | None = None) -> Any:
    """`tokenizers` reading a tokenizer.json (or a directory's), a BERT vocab.txt or GPT-2 vocab.json
    (told apart by content, as `load` tells them)."""
    tokenizers = _oracle("tokenizers")

    kind = detect_format(path, format)
    if kind == DIRECTORY:
        path, kind = path / "tokenizer.json", "tokenizer.json"
    if kind == "vocab.txt":
        from tokenizers.implementations import BertWordPieceTokenizer
        return BertWordPieceTokenizer(str(path), lowercase=lowercase)._tokenizer
    if kind in ("vocab.json", "merges.txt"):
        vocab, merges = (path, path.with_name("merges.txt")) if kind == "vocab.json" else (path.with_name("vocab.json"), path)
        from tokenizers.implementations import ByteLevelBPETokenizer
        official = ByteLevelBPETokenizer(str(vocab), str(merges))
        official.add_special_tokens(["<|endoftext|>"])
        return official._tokenizer
    return tokenizers.Tokenizer.from_file(str(path))


def sentencepiece_side(path: str | Path) -> Side:
    """`sentencepiece` on a .model file (it adds no special tokens by itself)."""
    sentencepiece = _oracle("sentencepiece")

    processor = sentencepiece.SentencePieceProcessor(model_file=str(path))

    def encode(text: str) -> list[Piece]:
        ids = processor.encode(text)
        return [(i, processor.id_to_piece(i)) for i in ids]

    return Side(f"sentencepiece {sentencepiece.__version__}", encode, lambda ids: processor.decode(ids))


def tiktoken_side(path: str | Path, *, encoding: str | None = None, pattern: str | None = None,
                  special_tokens: dict[str, int] | None = None) -> Side:
    """`tiktoken` on a rank file; the pattern and special tokens come from the arguments or from
    tiktoken's own definition of `encoding` (which needs that encoding in tiktoken's cache)."""
    tiktoken = _oracle("tiktoken")
    from tiktoken.load import load_tiktoken_bpe

    if pattern is None and encoding is None:  # the file's own: a known encoding, else its sidecar
        spec = rank_file_spec(path)
        encoding = spec.name
        if encoding is None:
            pattern = spec.pattern
            special_tokens = spec.special_tokens if special_tokens is None else special_tokens
    if pattern is None:
        definition = _tiktoken_definition(encoding)
        pattern = definition["pat_str"]
        special_tokens = definition["special_tokens"] if special_tokens is None else special_tokens
    official = tiktoken.Encoding(name=encoding or Path(path).stem, pat_str=pattern,
                                 mergeable_ranks=load_tiktoken_bpe(str(path)),
                                 special_tokens=special_tokens or {})

    def encode(text: str) -> list[Piece]:
        ids = official.encode(text, allowed_special="all")
        return [(i, official.decode_single_token_bytes(i).decode("utf-8", errors="backslashreplace"))
                for i in ids]

    return Side(f"tiktoken {tiktoken.__version__}", encode, lambda ids: official.decode(ids))


def _tiktoken_definition(encoding: str) -> dict[str, Any]:
    """tiktoken's own definition of a named encoding (pattern, special tokens), without its ranks.

    tiktoken's constructors download the rank file; the ranks come from the file under test here,
    so the constructor runs with its rank loader answering an empty table.
    """
    from unittest import mock

    registry = _oracle("tiktoken.registry")

    if getattr(registry, "ENCODING_CONSTRUCTORS", None) is None:
        registry._find_constructors()
    constructor = registry.ENCODING_CONSTRUCTORS.get(encoding)
    if constructor is None:
        known = ", ".join(sorted(registry.ENCODING_CONSTRUCTORS))
        raise FormatError(f"tiktoken knows no encoding {encoding!r} (it knows {known}); pass pattern=")
    module = sys.modules[constructor.__module__]
    with mock.patch.object(module, "load_tiktoken_bpe", lambda *args, **kwargs: {}):
        return constructor()


def transformers_side(directory: str | Path | Tokenizer, add_special_tokens: bool) -> Side:
    """transformers.AutoTokenizer on a local directory (offline); an hfcompat Tokenizer is first
    written with save_pretrained into a temporary directory."""
    if isinstance(directory, Tokenizer):
        import tempfile
        with tempfile.TemporaryDirectory(prefix="hfcompat-verify-") as scratch:
            directory.save_pretrained(scratch)
            return transformers_side(scratch, add_special_tokens)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    transformers = _oracle("transformers")

    path = Path(directory)
    if path.is_file():  # a bare tokenizer.json: transformers' class that takes it as it is
        auto = transformers.PreTrainedTokenizerFast(tokenizer_file=str(path))
    else:
        auto = transformers.AutoTokenizer.from_pretrained(str(path), local_files_only=True)

    def encode(text: str) -> list[Piece]:
        ids = auto(text, add_special_tokens=add_special_tokens)["input_ids"]
        return list(zip(ids, auto.convert_ids_to_tokens(ids)))

    return Side(f"transformers {transformers.__version__}", encode,
                lambda ids: auto.decode(ids, skip_special_tokens=False))


def mistral_common_side(path: str | Path) -> Side:
    """mistral-common's Tekkenizer on a tekken.json (special tokens in text are plain text; none
    are added; decoding keeps them, as hfcompat's side does)."""
    mistral_common = _oracle("mistral_common")
    from mistral_common.tokens.tokenizers.base import SpecialTokenPolicy
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    tekken = Tekkenizer.from_file(Path(path))

    def encode(text: str) -> list[Piece]:
        return [(i, tekken.id_to_piece(i)) for i in tekken.encode(text, bos=False, eos=False)]

    return Side(f"mistral-common {mistral_common.__version__}", encode,
                lambda ids: tekken.decode(ids, SpecialTokenPolicy.KEEP))


def llama_cpp_test_cases(path: str | Path) -> list[tuple[str, list[int]]]:
    """The test strings recorded beside a GGUF (X.gguf.inp) with the ids they must give (X.gguf.out)."""
    inputs, outputs = Path(f"{path}.inp"), Path(f"{path}.out")
    if not inputs.exists() or not outputs.exists():
        raise FormatError(f"no llama.cpp test strings beside it ({inputs.name} and {outputs.name}); verify a GGUF "
                          "with against='tokenizers' and reference= the file it was converted from", path=str(path))
    try:
        texts = inputs.read_text(encoding="utf-8").split(TEST_SEPARATOR)
        lines = outputs.read_text(encoding="utf-8").split("\n")
    except UnicodeDecodeError as error:
        raise FormatError(f"not UTF-8 ({error.reason})", path=str(inputs)) from None
    if texts and texts[-1] in ("", TEST_SEPARATOR.lstrip("\n")):
        texts.pop()
    elif texts and texts[-1].endswith(TEST_SEPARATOR.rstrip("\n")):
        texts[-1] = texts[-1][:-len(TEST_SEPARATOR.rstrip("\n"))]
    try:
        ids = [[int(token_id) for token_id in line.split()] for line in lines[:len(texts)]]
    except ValueError:
        raise FormatError("expected lines of space-separated ids", path=str(outputs)) from None
    if len(ids) != len(texts):
        raise FormatError(f"{len(ids)} id lines for {len(texts)} texts", path=str(outputs))
    return list(zip(texts, ids))


def llama_cpp_tests_side(path: str | Path) -> Side:
    """The ids recorded for llama.cpp's test strings of a GGUF; a text not among them is an error."""
    recorded = dict(llama_cpp_test_cases(path))

    def encode(text: str) -> list[Piece]:
        if text not in recorded:
            raise KeyError(f"no recorded ids for this text in {path}.out")
        return [(token_id, str(token_id)) for token_id in recorded[text]]

    return Side(f"llama.cpp tests ({Path(path).name}.out)", encode, None)


def owner_library(path: str | Path, format: str | None = None) -> str:
    """The library that owns what a path holds (read by content, as `load` reads it): what
    `against="auto"` picks."""
    return OWNERS.get(detect_format(path, format), "tokenizers")


def library_side(library: str, source: str | Path | Tokenizer, add_special_tokens: bool,
                 options: dict[str, Any], whole_inputs: bool = False) -> Side:
    """The side of `library` running `source` (a path; a Tokenizer only for `tokenizers`)."""
    if library not in LIBRARIES:
        raise ValueError(f"unknown library {library!r}: expected auto or one of {', '.join(LIBRARIES)}")
    try:
        return _library_side(library, source, add_special_tokens, options, whole_inputs)
    except (ValueError, FormatError):
        raise
    except Exception as error:  # noqa: BLE001 - the official library's own error, with the file named
        where = "" if isinstance(source, Tokenizer) else f"{source}: "
        raise FormatError(f"{where}{library} cannot load it: {error}") from None


def _library_side(library: str, source: str | Path | Tokenizer, add_special_tokens: bool,
                  options: dict[str, Any], whole_inputs: bool) -> Side:
    """library_side without the error translation."""
    if library == "tokenizers":
        return tokenizers_side(source, add_special_tokens, options.get("lowercase", True), options.get("format"),
                               whole_inputs)
    if library == "transformers":
        return transformers_side(source, add_special_tokens)
    if isinstance(source, Tokenizer):
        raise ValueError(f"{library} needs a file: pass the path, or verify against tokenizers or transformers")
    if library == "sentencepiece":
        return sentencepiece_side(source)
    if library == "mistral-common":
        return mistral_common_side(source)
    if library == "llama.cpp-tests":
        return llama_cpp_tests_side(source)
    if library == "tiktoken":
        return tiktoken_side(source, **{k: options[k] for k in ("encoding", "pattern", "special_tokens")
                                        if options.get(k) is not None})
    raise ValueError(f"unknown library {library!r}")


# ---------------------------------------------------------------- verify


def verify(tokenizer_or_path: Tokenizer | str | Path, texts: Iterable[str], against: str = "auto",
           reference: str | Path | None = None, *, add_special_tokens: bool = True,
           keep: int = DIVERGENCES_KEPT, progress: bool = False, **load_options: Any) -> VerifyReport:
    """Encode every text on both sides and report the differences.

    - `verify(tok_or_path, texts)`: hfcompat (the tokenizer, or `hfcompat.load(path, **load_options)`)
      against the owner library of the file (`against` names another library).
    - `verify(path, texts, reference=original)`: the file in its own library against the original
      in its own (`against` picks the original's library; `format=` is the original's): a
      conversion checked end to end.
    A text agrees when the ids are equal and each side decodes them to the same text. Only what
    both files can hold is compared, and the report's notes say what was left out: when a side runs
    a file that holds no post-processor (a .model, a rank file, a tekken.json, llama.cpp's recorded
    ids) both sides encode without special tokens; against such a file or a GGUF, the tokenizers
    side runs without its truncation and padding. A converted GGUF is read by hfcompat (nothing
    here runs llama.cpp).
    """
    plan = _plan(tokenizer_or_path, against, reference, load_options.get("format"))
    specials = add_special_tokens and not plan.plain
    subject, reference_side = _sides(plan, tokenizer_or_path, reference, specials, load_options)
    report = VerifyReport(subject.name, reference_side.name, add_special_tokens=specials,
                          notes=[*plan.notes, *subject.notes, *reference_side.notes])
    if add_special_tokens and plan.plain:
        report.notes.append("special tokens not added on either side: "
                            + "; ".join(NO_POST_PROCESSOR[library] for library in plan.plain))
    items = list(texts)
    for text in _with_progress(items, progress):
        report.total += 1
        report.input_bytes += len(text.encode("utf-8"))
        started = time.perf_counter()
        actual = _outcome(subject.encode, text)
        middle = time.perf_counter()
        expected = _outcome(reference_side.encode, text)
        report.subject_seconds += middle - started
        report.reference_seconds += time.perf_counter() - middle
        divergence = _compare(text, expected, actual, reference_side, subject)
        if divergence is not None:
            report.mismatches += 1
            if len(report.first_divergences) < keep:
                report.first_divergences.append(divergence)
    return report


@dataclass
class Plan:
    """Which library runs each side (None: hfcompat itself), and the sides that add no special tokens."""

    subject: str | None
    reference: str
    notes: list[str] = field(default_factory=list)  # why a side is not what the file's owner would run
    gguf_subject: bool = False  # a GGUF read by hfcompat: it holds a post-processor, but no truncation or padding

    @property
    def whole_inputs(self) -> bool:
        """True when a side's file holds no truncation or padding (every file but a tokenizer.json's)."""
        return bool(self.plain) or self.gguf_subject

    @property
    def plain(self) -> list[str]:
        """The sides' libraries whose files hold no post-processor, each named once."""
        return list(dict.fromkeys(library for library in (self.subject, self.reference)
                                  if library in NO_POST_PROCESSOR))


def _plan(tokenizer_or_path: Tokenizer | str | Path, against: str, reference: str | Path | None,
          format: str | None) -> Plan:
    """The libraries of verify's two sides: the owners of the files (read by content) unless
    `against` names the reference's."""
    if reference is not None:
        library = owner_library(reference, format) if against == "auto" else against
        subject = None if isinstance(tokenizer_or_path, Tokenizer) else owner_library(tokenizer_or_path)
        if subject == "llama.cpp-tests":  # ids recorded for llama.cpp's own texts only: nothing runs a GGUF here
            return Plan(None, library, [GGUF_SUBJECT_NOTE], gguf_subject=True)
        return Plan(subject, library)
    if isinstance(tokenizer_or_path, Tokenizer):
        return Plan(None, "tokenizers" if against == "auto" else against)
    return Plan(None, owner_library(tokenizer_or_path, format) if against == "auto" else against)


def _sides(plan: Plan, tokenizer_or_path: Tokenizer | str | Path, reference: str | Path | None,
           specials: bool, options: dict[str, Any]) -> tuple[Side, Side]:
    """(subject, reference) as the plan says, each adding special tokens when `specials`."""
    # with a reference, `format` is the original's
    own = {k: v for k, v in options.items() if v is not None and (reference is None or k != "format")}
    if plan.subject is not None:  # a converted file in its own library
        subject = library_side(plan.subject, tokenizer_or_path, specials, own, plan.whole_inputs)
    elif isinstance(tokenizer_or_path, Tokenizer):
        subject = hfcompat_side(tokenizer_or_path, specials)
    else:
        subject = hfcompat_side(load(tokenizer_or_path, **own), specials)
    source = tokenizer_or_path if reference is None else reference
    return subject, library_side(plan.reference, source, specials, options, plan.whole_inputs)


def _outcome(encode: Callable[[str], list[Piece]], text: str) -> list[Piece] | Exception:
    """The pieces of a text, or the exception the side raised (a result to compare)."""
    try:
        return encode(text)
    except Exception as error:  # noqa: BLE001 - a side that raises is a result
        return error


def _compare(text: str, expected: Any, actual: Any, reference: Side, subject: Side) -> Divergence | None:
    """The divergence of one text, or None when ids and decoded text agree."""
    if isinstance(expected, Exception) or isinstance(actual, Exception):
        if isinstance(expected, Exception) and isinstance(actual, Exception):
            return None
        return Divergence(text, 0, _error_pieces(expected), _error_pieces(actual))
    expected_ids = [i for i, _ in expected]
    actual_ids = [i for i, _ in actual]
    if expected_ids != actual_ids:
        position = next((k for k, (a, b) in enumerate(zip(expected_ids, actual_ids)) if a != b),
                        min(len(expected_ids), len(actual_ids)))
        return Divergence(text, position, expected, actual)
    if reference.decode is None or subject.decode is None:
        return None
    want = _outcome(lambda _: reference.decode(expected_ids), text)
    got = _outcome(lambda _: subject.decode(actual_ids), text)
    if str(want) != str(got):
        return Divergence(text, -1, expected, actual, str(want), str(got))
    return None


def _error_pieces(result: Any) -> list[Piece]:
    """Pieces of a result for a report; an exception shows as one pseudo-piece."""
    if isinstance(result, Exception):
        return [(-1, f"<raises {type(result).__name__}: {result}>")]
    return result


def _with_progress(items: Sequence[str], progress: bool) -> Iterable[str]:
    """items, under a tqdm bar on stderr when asked and tqdm is installed."""
    if not progress:
        return items
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(items, desc="verify", unit="text", leave=False)
