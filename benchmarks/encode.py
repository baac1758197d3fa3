"""Encoding throughput of hfcompat against `tokenizers`, single-threaded, on the shared corpora.

Run: .venv/bin/python benchmarks/encode.py [--quick] [--repeat N] [--only KEYS] [--json]
See benchmarks/README.md for what each column means.
"""

from __future__ import annotations

import os

# tokenizers reads these when it is imported: one thread, so both sides do the same work.
os.environ["RAYON_NUM_THREADS"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import argparse  # noqa: E402
import base64  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from dataclasses import asdict, dataclass  # noqa: E402
from functools import lru_cache, partial  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Callable, Sequence  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO))

import hfcompat  # noqa: E402
from hfcompat.pipeline.bytelevel import bytes_to_chars  # noqa: E402

try:
    import tokenizers
except ImportError:  # the rows that need the oracle are skipped with this reason
    tokenizers = None
try:
    import tiktoken
    import tiktoken._educational as tiktoken_educational
except ImportError:  # the cl100k rows are skipped with this reason
    tiktoken = tiktoken_educational = None

QUICK_LINES = 1000
# The clock of every timing: wall time, or this process's CPU time with --cpu-time (steadier on
# a shared machine; both sides run on one thread, so it counts the same work).
clock = time.perf_counter
# Every timed run reads the ids of each Encoding, as any caller does: tokenizers' encode returns
# a Rust object and builds its Python lists only when they are read. --unread times the calls alone.
READ_IDS = True
LONG_PIECE = "a" * 1_000_000
LONG_PIECE_TARGET_S = 10.0
LOAD_TARGET_S = 1.0
LOAD_CHECK_LINES = 200  # botchan lines encoded by both sides of the load-time tokenizer


@dataclass(frozen=True)
class Subject:
    """One tokenizer under measurement and the throughput ratio it should reach."""

    key: str  # for --only
    name: str
    path: str  # relative to ../shared/refs
    target: float | None  # hfcompat/tokenizers speed ratio to reach, if any


SUBJECTS = [
    Subject("gpt2", "GPT-2 (BPE)", "gpt2/tokenizer.json", 1.0),
    Subject("bert", "BERT uncased (WordPiece)", "bert-base-uncased/vocab.txt", 1.0),
    Subject("t5", "T5 (Unigram)", "t5/tokenizer.json", 0.5),
    Subject("llama", "phi-3-mini (BPE, byte fallback)", "phi-3-mini/tokenizer.json", None),
    Subject("clip", "CLIP (BPE, </w>)", "clip/tokenizer.json", None),
]

# SentencePiece models: (key, name, file under ../shared/refs, target hfcompat/sentencepiece ratio).
# T5 ships only its converted tokenizer.json: hfcompat writes it back as a .model for sentencepiece.
SENTENCEPIECE_SUBJECTS = [
    Subject("spm-llama2", "Llama-2 .model (BPE)", "llama2/tokenizer.model", 1.0),
    Subject("spm-t5", "T5 .model (Unigram)", "t5/tokenizer.json", 0.5),
    Subject("spm-albert", "ALBERT .model (Unigram)", "albert/spiece.model", 0.5),
]

CORPORA = {
    "botchan": "corpora/botchan.txt",
    "taylorswift": "corpora/taylorswift.txt",
    "wagahaiwa": "corpora/wagahaiwa_nekodearu.txt",
    "pku_test": "corpora/icwb2/pku_test.utf8",
}

CL100K_FILE = "tiktoken/cl100k_base.tiktoken"  # relative to ../shared/refs
CL100K_CORPORA = {"English": "corpora/botchan.txt", "Chinese": "corpora/icwb2/pku_test.utf8",
                  "code": "hfcompat/**/*.py"}  # code: this repository's own source
EDUCATIONAL_LINES = 200  # tiktoken's pure-Python encoder is slow: it gets the first lines only
CL100K_TIKTOKEN_TARGET = 0.5  # hfcompat/tiktoken
CL100K_TOKENIZERS_TARGET = 1.5  # hfcompat/tokenizers (on the converted tokenizer.json)
CL100K_MEMORY_TARGET = 2.0  # hfcompat's memory / tiktoken's, after loading cl100k_base
TARGETS_LINE = (f"targets: BPE (GPT-2) and WordPiece (BERT) >= 1.0x tokenizers, Unigram (T5) >= 0.5x; "
                f"load of a 100k-token tokenizer.json < {LOAD_TARGET_S:g} s; "
                f"one 1,000,000-char piece through GPT-2's BPE < {LONG_PIECE_TARGET_S:g} s; "
                f"cl100k encode >= {CL100K_TIKTOKEN_TARGET:g}x tiktoken and >= {CL100K_TOKENIZERS_TARGET:g}x "
                f"tokenizers, cl100k load < {LOAD_TARGET_S:g} s and < {CL100K_MEMORY_TARGET:g}x tiktoken's memory")


@dataclass
class ThroughputRow:
    """Encoding speed of one tokenizer on one corpus, both libraries, both modes."""

    tokenizer: str
    corpus: str
    lines: int = 0
    megabytes: float = 0.0
    encode_hfcompat: float | None = None  # MB/s
    encode_tokenizers: float | None = None
    batch_hfcompat: float | None = None
    batch_tokenizers: float | None = None
    mismatches: int | None = None  # lines whose ids differ in either mode
    target: float | None = None
    skipped: str = ""

    @property
    def encode_ratio(self) -> float | None:
        """hfcompat speed / tokenizers speed for per-line encode calls."""
        return _ratio(self.encode_hfcompat, self.encode_tokenizers)

    @property
    def batch_ratio(self) -> float | None:
        """hfcompat speed / tokenizers speed for one encode_batch call."""
        return _ratio(self.batch_hfcompat, self.batch_tokenizers)

    def target_status(self) -> str:
        """Whether both ratios reach the target ("ok"), one of them, or neither ("MISS")."""
        if self.target is None or self.encode_ratio is None or self.batch_ratio is None:
            return ""
        met = (self.encode_ratio >= self.target, self.batch_ratio >= self.target)
        status = {(True, True): "ok", (True, False): "encode only",
                  (False, True): "batch only", (False, False): "MISS"}[met]
        return f">={self.target:.1f}x {status}"


@dataclass
class SentencePieceRow:
    """Per-line encoding speed of one .model: hfcompat, sentencepiece, and its tokenizer.json under tokenizers."""

    tokenizer: str
    corpus: str
    lines: int = 0
    megabytes: float = 0.0
    hfcompat: float | None = None  # MB/s
    sentencepiece: float | None = None
    tokenizers: float | None = None  # the tokenizer.json hfcompat converts the .model to
    mismatches: int | None = None  # lines where hfcompat's ids differ from sentencepiece's
    target: float | None = None
    skipped: str = ""

    @property
    def ratio(self) -> float | None:
        """hfcompat speed / sentencepiece speed."""
        return _ratio(self.hfcompat, self.sentencepiece)


@dataclass
class TimingRow:
    """A one-off timing (load time, long piece): seconds on each side and a correctness check."""

    name: str
    hfcompat_s: float | None = None
    tokenizers_s: float | None = None
    target_s: float | None = None
    check: str = ""
    skipped: str = ""

    @property
    def ratio(self) -> float | None:
        """tokenizers time / hfcompat time, so that >1 means hfcompat is faster, as above."""
        return _ratio(self.tokenizers_s, self.hfcompat_s)

    def target_status(self) -> str:
        """"ok" when hfcompat's time is under the target."""
        if self.target_s is None or self.hfcompat_s is None:
            return ""
        return f"<{self.target_s:g} s " + ("ok" if self.hfcompat_s < self.target_s else "MISS")


@dataclass
class Cl100kRow:
    """cl100k_base encode speed on one corpus: hfcompat, tiktoken, tokenizers, tiktoken's educational encoder."""

    corpus: str
    lines: int = 0
    megabytes: float = 0.0
    hfcompat: float | None = None  # MB/s of encode_ordinary(line) per line
    hfcompat_encoding: float | None = None  # MB/s of encode(line) (an Encoding, through the pipeline)
    tiktoken: float | None = None  # MB/s of tiktoken's encode_ordinary(line)
    tokenizers: float | None = None  # MB/s of tokenizers' encode(line) on the converted tokenizer.json
    educational: float | None = None  # MB/s of tiktoken._educational on the first EDUCATIONAL_LINES lines
    mismatches: int | None = None  # lines where hfcompat (either path) or tokenizers differ from tiktoken
    skipped: str = ""

    @property
    def tiktoken_ratio(self) -> float | None:
        """hfcompat / tiktoken."""
        return _ratio(self.hfcompat, self.tiktoken)

    @property
    def tokenizers_ratio(self) -> float | None:
        """hfcompat / tokenizers."""
        return _ratio(self.hfcompat, self.tokenizers)

    def target_status(self) -> str:
        """"ok" when both ratios reach their targets."""
        if self.tiktoken_ratio is None or self.tokenizers_ratio is None:
            return ""
        met = self.tiktoken_ratio >= CL100K_TIKTOKEN_TARGET and self.tokenizers_ratio >= CL100K_TOKENIZERS_TARGET
        return "ok" if met else "MISS"


@dataclass
class Cl100kLoadRow:
    """Loading cl100k_base in a fresh process: seconds and resident memory added, both libraries."""

    name: str
    hfcompat_s: float | None = None
    tiktoken_s: float | None = None
    hfcompat_cpu_s: float | None = None  # CPU time: what the load costs when other processes share the cores
    tiktoken_cpu_s: float | None = None
    hfcompat_mb: float | None = None
    tiktoken_mb: float | None = None
    skipped: str = ""

    def target_status(self) -> str:
        """"ok" when hfcompat loads in under LOAD_TARGET_S with under CL100K_MEMORY_TARGET x the memory."""
        if self.hfcompat_s is None or self.hfcompat_mb is None or not self.tiktoken_mb:
            return ""
        met = self.hfcompat_s < LOAD_TARGET_S and self.hfcompat_mb < CL100K_MEMORY_TARGET * self.tiktoken_mb
        return "ok" if met else "MISS"


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    """numerator / denominator, or None when either is missing."""
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


# ---------------------------------------------------------------- inputs and tokenizers


def read_lines(path: Path, limit: int | None) -> list[str]:
    """Lines of a UTF-8 file split on "\\n" only (as the conformance tests read them)."""
    lines = path.read_bytes().decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines if limit is None else lines[:limit]


@lru_cache(maxsize=1)  # rows go tokenizer by tokenizer: each is measured without the others alive
def load_hfcompat(relative: str) -> Any:
    """hfcompat's tokenizer for a reference file, saved truncation and padding turned off."""
    tokenizer = hfcompat.load(SHARED / "refs" / relative)
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def official_tokenizer(relative: str) -> Any:
    """A fresh official tokenizer for a reference file, saved truncation and padding turned off.

    A BERT vocab.txt goes through BertWordPieceTokenizer(vocab, lowercase=True); the Rust
    tokenizer it wraps is timed, so the wrapper's Python layer does not count against it.
    """
    path = SHARED / "refs" / relative
    if path.name == "vocab.txt":
        tokenizer = tokenizers.BertWordPieceTokenizer(str(path), lowercase=True)._tokenizer
    else:
        tokenizer = tokenizers.Tokenizer.from_file(str(path))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


# Rows go tokenizer by tokenizer: each is measured without the others alive.
load_tokenizers = lru_cache(maxsize=1)(official_tokenizer)


def best_of(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """(best wall time of `repeat` runs after one warm-up run, the last run's result)."""
    gc.collect()  # the garbage of earlier measurements is not this one's to collect
    result = fn()
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        result = fn()
        best = min(best, clock() - start)
    return best, result


def per_line(tokenizer: Any, lines: list[str], **options: Any) -> Callable[[], list[Any]]:
    """A run of one `encode` call per line: the ids of each line (the Encodings with --unread)."""
    encode = partial(tokenizer.encode, **options)
    if not READ_IDS:
        return lambda: [encode(line) for line in lines]
    return lambda: [encode(line).ids for line in lines]


def batch(tokenizer: Any, lines: list[str]) -> Callable[[], list[Any]]:
    """A run of one `encode_batch` call over all lines: the ids of each (the Encodings with --unread)."""
    if not READ_IDS:
        return lambda: tokenizer.encode_batch(lines)
    return lambda: [encoding.ids for encoding in tokenizer.encode_batch(lines)]


def ids_of(result: Any) -> list[int]:
    """The ids of one line as a run returned them (a list, or an Encoding with --unread)."""
    return list(result) if isinstance(result, (list, tuple)) else list(result.ids)


# ---------------------------------------------------------------- measurements


def measure_throughput(subject: Subject, corpus: str, lines: list[str], repeat: int) -> ThroughputRow:
    """Both modes on both libraries for one tokenizer and corpus, and the id mismatches."""
    row = ThroughputRow(subject.name, corpus, lines=len(lines), target=subject.target)
    row.megabytes = sum(len(line.encode("utf-8")) for line in lines) / 1e6
    try:
        ours = load_hfcompat(subject.path)
    except hfcompat.FormatError as error:
        row.skipped = f"hfcompat cannot load it: {error}"
        return row
    theirs = load_tokenizers(subject.path)
    try:
        t_ours, ours_single = best_of(per_line(ours, lines), repeat)
        t_ours_batch, ours_batch = best_of(batch(ours, lines), repeat)
    except Exception as error:  # noqa: BLE001 - reported in the row, the other rows still run
        row.skipped = f"hfcompat raised {type(error).__name__}: {error}"
        return row
    t_theirs, _ = best_of(per_line(theirs, lines), repeat)
    t_theirs_batch, theirs_batch = best_of(batch(theirs, lines), repeat)
    row.encode_hfcompat, row.encode_tokenizers = row.megabytes / t_ours, row.megabytes / t_theirs
    row.batch_hfcompat, row.batch_tokenizers = row.megabytes / t_ours_batch, row.megabytes / t_theirs_batch
    row.mismatches = sum(
        1 for expected, single, batched in zip(theirs_batch, ours_single, ours_batch)
        if ids_of(expected) != ids_of(single) or ids_of(expected) != ids_of(batched))
    return row


def sentencepiece_models(subject: Subject, directory: Path) -> tuple[Any, Any, Any]:
    """(hfcompat tokenizer, sentencepiece processor, tokenizers on the converted json) of one subject."""
    import sentencepiece

    source = SHARED / "refs" / subject.path
    model = source
    if source.suffix == ".json":
        model = directory / f"{subject.key}.model"
        hfcompat.convert(source, model)
    converted = directory / f"{subject.key}.json"
    hfcompat.convert(model, converted)
    return (hfcompat.load(model), sentencepiece.SentencePieceProcessor(model_file=str(model)),
            tokenizers.Tokenizer.from_file(str(converted)))


def measure_sentencepiece(subject: Subject, corpus: str, lines: list[str], repeat: int,
                          directory: Path) -> SentencePieceRow:
    """One .model on one corpus: the three libraries, one encode call per line."""
    row = SentencePieceRow(subject.name, corpus, lines=len(lines), target=subject.target)
    row.megabytes = sum(len(line.encode("utf-8")) for line in lines) / 1e6
    ours, sp, theirs = sentencepiece_models(subject, directory)
    t_ours, ours_encodings = best_of(per_line(ours, lines), repeat)
    t_sp, expected = best_of(lambda: [sp.encode(line) for line in lines], repeat)
    t_theirs, _ = best_of(per_line(theirs, lines), repeat)
    row.hfcompat, row.sentencepiece, row.tokenizers = (row.megabytes / t for t in (t_ours, t_sp, t_theirs))
    row.mismatches = sum(1 for ids, encoding in zip(expected, ours_encodings) if ids_of(encoding) != ids)
    return row


def sentencepiece_rows(subjects: list[Subject], limit: int | None, repeat: int,
                       progress: Callable[[str], None]) -> list[SentencePieceRow]:
    """Every (.model, corpus) row; a missing sentencepiece or file skips with the reason."""
    try:
        import sentencepiece  # noqa: F401
    except ImportError:
        return [SentencePieceRow(s.name, "-", skipped="sentencepiece is not installed") for s in subjects]
    rows = []
    with tempfile.TemporaryDirectory(prefix="hfcompat-bench-spm-") as tmp:
        for subject in subjects:
            for corpus, relative in CORPORA.items():
                reason = missing_reason(SHARED / "refs" / subject.path) or missing_reason(SHARED / relative)
                if reason:
                    rows.append(SentencePieceRow(subject.name, corpus, target=subject.target, skipped=reason))
                    continue
                progress(f"{subject.name} on {corpus}")
                lines = read_lines(SHARED / relative, limit)
                rows.append(measure_sentencepiece(subject, corpus, lines, repeat, Path(tmp)))
    return rows


def throughput_rows(subjects: list[Subject], limit: int | None, repeat: int,
                    progress: Callable[[str], None]) -> list[ThroughputRow]:
    """Every (tokenizer, corpus) row, skipped rows included with their reason."""
    rows = []
    for subject in subjects:
        reason = missing_reason(SHARED / "refs" / subject.path)
        for corpus, relative in CORPORA.items():
            corpus_reason = reason or missing_reason(SHARED / relative)
            if corpus_reason:
                rows.append(ThroughputRow(subject.name, corpus, target=subject.target, skipped=corpus_reason))
                continue
            progress(f"{subject.name} on {corpus}")
            lines = read_lines(SHARED / relative, limit)
            rows.append(measure_throughput(subject, corpus, lines, repeat))
    return rows


def missing_reason(path: Path) -> str:
    """Why a row cannot run ("" when it can)."""
    if tokenizers is None:
        return "tokenizers is not installed"
    if not SHARED.is_dir():
        return f"{SHARED} is absent"
    if not path.exists():
        return f"{path} is absent"
    return ""


def tiktoken_ranks(path: Path) -> dict[bytes, int]:
    """Token bytes -> rank from a .tiktoken file ("base64 rank" lines)."""
    ranks = {}
    for line in path.read_bytes().splitlines():
        if line.strip():
            encoded, rank = line.split()
            ranks[base64.b64decode(encoded)] = int(rank)
    return ranks


def rank_merges(ranks: dict[bytes, int]) -> list[tuple[bytes, bytes]]:
    """A merge for every token of 2+ bytes, in rank order.

    Each token splits into the (left, right) pair of known tokens whose larger rank is smallest;
    ties go to the shorter left part.
    """
    merges = []
    for token, rank in ranks.items():
        best = None
        for cut in range(1, len(token)):
            left, right = ranks.get(token[:cut]), ranks.get(token[cut:])
            if left is not None and right is not None and (best is None or (max(left, right), cut) < best):
                best = (max(left, right), cut)
        if best is not None:
            merges.append((rank, token[: best[1]], token[best[1]:]))
    merges.sort()
    return [(left, right) for _, left, right in merges]


def build_cl100k_json(directory: Path) -> tuple[Path, int]:
    """Write cl100k_base as a byte-level BPE tokenizer.json with tokenizers' own API."""
    ranks = tiktoken_ranks(SHARED / "refs" / "tiktoken" / "cl100k_base.tiktoken")
    vocab = {bytes_to_chars(token): rank for token, rank in ranks.items()}
    merges = [(bytes_to_chars(left), bytes_to_chars(right)) for left, right in rank_merges(ranks)]
    tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE(vocab=vocab, merges=merges, ignore_merges=True))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tokenizer.decoder = tokenizers.decoders.ByteLevel()
    path = directory / "tokenizer.json"
    tokenizer.save(str(path))
    return path, len(vocab)


def measure_load(repeat: int) -> TimingRow:
    """Load time of a 100k-token tokenizer.json (cl100k_base rebuilt as one), both libraries."""
    row = TimingRow("load 100k-vocab tokenizer.json", target_s=LOAD_TARGET_S)
    row.skipped = missing_reason(SHARED / "refs" / "tiktoken" / "cl100k_base.tiktoken")
    if row.skipped:
        return row
    with tempfile.TemporaryDirectory(prefix="hfcompat-bench-") as tmp:
        path, size = build_cl100k_json(Path(tmp))
        row.name = f"load {size:,}-token tokenizer.json"
        try:
            row.hfcompat_s, ours = best_of(lambda: hfcompat.load(path), repeat)
        except Exception as error:  # noqa: BLE001 - reported in the row
            row.hfcompat_s, row.skipped = None, f"hfcompat raised {type(error).__name__}: {error}"
            return row
        row.tokenizers_s, theirs = best_of(lambda: tokenizers.Tokenizer.from_file(str(path)), repeat)
    lines = read_lines(SHARED / CORPORA["botchan"], LOAD_CHECK_LINES)
    expected = theirs.encode_batch(lines)
    differing = sum(1 for line, e in zip(lines, expected) if ours.encode(line).ids != list(e.ids))
    row.check = f"{differing} of {len(lines)} lines differ"
    return row


def measure_long_piece() -> TimingRow:
    """One 1,000,000-char piece through GPT-2's BPE model (model.tokenize), once per library."""
    row = TimingRow('"a" * 1,000,000 through GPT-2 BPE', target_s=LONG_PIECE_TARGET_S)
    row.skipped = missing_reason(SHARED / "refs" / "gpt2" / "tokenizer.json")
    if row.skipped:
        return row
    ours = load_hfcompat("gpt2/tokenizer.json").model
    theirs = load_tokenizers("gpt2/tokenizer.json").model
    start = clock()
    ours_tokens = ours.tokenize(LONG_PIECE)
    row.hfcompat_s = clock() - start
    start = clock()
    theirs_tokens = theirs.tokenize(LONG_PIECE)
    row.tokenizers_s = clock() - start
    same = [(t.id, tuple(t.offsets)) for t in ours_tokens] == [(t.id, tuple(t.offsets)) for t in theirs_tokens]
    row.check = f"{len(theirs_tokens):,} tokens, " + ("ids and offsets identical" if same else "DIFFERENT")
    return row


# ---------------------------------------------------------------- cl100k_base (tiktoken)


def cl100k_lines(corpus: str, limit: int | None) -> list[str]:
    """The lines of one cl100k corpus (the code corpus is this repository's Python source)."""
    pattern = CL100K_CORPORA[corpus]
    if corpus == "code":
        text = "".join(path.read_text(encoding="utf-8") for path in sorted(REPO.glob(pattern)))
        lines = text.split("\n")
        return lines if limit is None else lines[:limit]
    return read_lines(SHARED / pattern, limit)


def tiktoken_cl100k(cache: Path) -> Any:
    """tiktoken's own cl100k_base, reading the rank file from a local cache (never the network)."""
    import hashlib

    from hfcompat.formats.tiktoken.encodings import KNOWN_ENCODINGS

    link = cache / hashlib.sha1(KNOWN_ENCODINGS["cl100k_base"].url.encode()).hexdigest()
    if not link.exists():
        link.symlink_to(SHARED / "refs" / CL100K_FILE)
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    return tiktoken.get_encoding("cl100k_base")


def cl100k_missing_reason() -> str:
    """Why the cl100k rows cannot run ("" when they can)."""
    if tiktoken is None:
        return "tiktoken is not installed"
    return missing_reason(SHARED / "refs" / CL100K_FILE)


def measure_cl100k(limit: int | None, repeat: int, progress: Callable[[str], None]) -> list[Cl100kRow]:
    """cl100k_base encode throughput on English, Chinese and code, four encoders, one process."""
    reason = cl100k_missing_reason()
    if reason:
        return [Cl100kRow(corpus, skipped=reason) for corpus in CL100K_CORPORA]
    with tempfile.TemporaryDirectory(prefix="hfcompat-bench-") as tmp:
        ours = hfcompat.load(SHARED / "refs" / CL100K_FILE)
        theirs = tiktoken_cl100k(Path(tmp))
        ours.save(str(Path(tmp) / "tokenizer.json"))
        converted = tokenizers.Tokenizer.from_file(str(Path(tmp) / "tokenizer.json"))
    educational = tiktoken_educational.SimpleBytePairEncoding(
        pat_str=theirs._pat_str, mergeable_ranks=theirs._mergeable_ranks)
    rows = []
    for corpus in CL100K_CORPORA:
        progress(f"cl100k_base on {corpus}")
        lines = cl100k_lines(corpus, limit)
        row = Cl100kRow(corpus, len(lines), sum(len(line.encode("utf-8")) for line in lines) / 1e6)
        t_ours, ours_ids = best_of(lambda: [ours.encode_ordinary(line) for line in lines], repeat)
        t_pipeline, ours_encodings = best_of(per_line(ours, lines, disallowed_special=()), 1)
        t_theirs, expected = best_of(lambda: [theirs.encode_ordinary(line) for line in lines], repeat)
        t_hf, hf_encodings = best_of(per_line(converted, lines, add_special_tokens=False), repeat)
        few = lines[:EDUCATIONAL_LINES]
        t_edu, _ = best_of(lambda: [educational.encode(line, visualise=None) for line in few], 1)
        row.hfcompat, row.tiktoken = row.megabytes / t_ours, row.megabytes / t_theirs
        row.hfcompat_encoding, row.tokenizers = row.megabytes / t_pipeline, row.megabytes / t_hf
        row.educational = sum(len(line.encode("utf-8")) for line in few) / 1e6 / t_edu
        # tokenizers always matches special tokens (this repository's source names a few).
        expected_hf = [theirs.encode(line, allowed_special="all") for line in lines]
        row.mismatches = sum(1 for want, fast, full, want_hf, hf in zip(expected, ours_ids, ours_encodings,
                                                                         expected_hf, hf_encodings)
                             if not want == fast == ids_of(full) or want_hf != ids_of(hf))
        rows.append(row)
    return rows


LOAD_PROBE = """
import json, sys, time
def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 1e6
{imports}
before = rss_mb()
start, cpu_start = time.perf_counter(), time.process_time()
{load}
elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
print(json.dumps({{"s": elapsed, "cpu_s": cpu, "mb": rss_mb() - before}}))
"""


def probe(imports: str, load: str, env: dict[str, str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, resident MB added) of `load` in a fresh interpreter, after `imports`."""
    import subprocess

    code = LOAD_PROBE.format(imports=imports, load=load)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, **env}, cwd=REPO)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["s"], result["cpu_s"], result["mb"]


def measure_cl100k_load() -> list[Cl100kLoadRow]:
    """hfcompat.load of cl100k_base (derived merges not cached yet, then cached) against tiktoken."""
    rows = [Cl100kLoadRow("load cl100k_base, first time (merges derived)"),
            Cl100kLoadRow("load cl100k_base again (merges from the cache)")]
    reason = cl100k_missing_reason()
    if reason:
        for row in rows:
            row.skipped = reason
        return rows
    path = SHARED / "refs" / CL100K_FILE
    with tempfile.TemporaryDirectory(prefix="hfcompat-bench-") as tmp:
        tiktoken_cl100k(Path(tmp))  # the cache link tiktoken reads
        env = {"HFCOMPAT_CACHE_DIR": str(Path(tmp) / "hfcompat"), "TIKTOKEN_CACHE_DIR": tmp}
        tiktoken_s, tiktoken_cpu_s, tiktoken_mb = probe("import tiktoken", "enc = tiktoken.get_encoding('cl100k_base')\n"
                                        "enc.encode_ordinary('warm up')", env)
        for row in rows:
            row.hfcompat_s, row.hfcompat_cpu_s, row.hfcompat_mb = probe(
                "import hfcompat", f"tok = hfcompat.load({str(path)!r})\ntok.encode_ordinary('warm up')", env)
            row.tiktoken_s, row.tiktoken_cpu_s, row.tiktoken_mb = tiktoken_s, tiktoken_cpu_s, tiktoken_mb
    return rows


def cl100k_table(rows: list[Cl100kRow], loads: list[Cl100kLoadRow]) -> str:
    """The cl100k rows: throughput of the four encoders, then load time and memory."""
    header = ("cl100k_base", "lines", "MB", "hf", "hf Encoding", "tiktoken", "tokenizers", "educational",
              "x tiktoken", "x tokenizers", "mismatch", "target")
    body = []
    for r in rows:
        if r.skipped:
            body.append((r.corpus, *["-"] * 10, "skipped"))
            continue
        body.append((r.corpus, str(r.lines), f"{r.megabytes:.2f}", fmt(r.hfcompat, ".2f"),
                     fmt(r.hfcompat_encoding, ".2f"), fmt(r.tiktoken, ".2f"), fmt(r.tokenizers, ".2f"),
                     fmt(r.educational, ".3f"), fmt(r.tiktoken_ratio, ".2f"), fmt(r.tokenizers_ratio, ".2f"),
                     str(r.mismatches), r.target_status()))
    load_header = ("cl100k_base load (fresh process)", "hfcompat s", "tiktoken s", "hfcompat cpu s",
                   "tiktoken cpu s", "hfcompat MB", "tiktoken MB", "target")
    load_body = [(r.name, fmt(r.hfcompat_s, ".3f"), fmt(r.tiktoken_s, ".3f"), fmt(r.hfcompat_cpu_s, ".3f"),
                  fmt(r.tiktoken_cpu_s, ".3f"), fmt(r.hfcompat_mb, ".1f"),
                  fmt(r.tiktoken_mb, ".1f"), r.target_status() or ("skipped" if r.skipped else ""))
                 for r in loads]
    notes = sorted({f"skipped cl100k: {r.skipped}" for r in [*rows, *loads] if r.skipped})
    return "\n".join([render_table(header, body, left=1), "", render_table(load_header, load_body, left=1),
                      *notes])


# ---------------------------------------------------------------- output


def render_table(header: Sequence[str], rows: list[Sequence[str]], left: int) -> str:
    """An aligned text table; the first `left` columns are left-aligned, the rest right-aligned."""
    table = [list(header)] + [list(r) for r in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i < left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join([line(table[0]), "  ".join("-" * w for w in widths)] + [line(r) for r in table[1:]])


def fmt(value: float | None, spec: str) -> str:
    """A number, or "-" when missing."""
    return "-" if value is None else format(value, spec)


def throughput_table(rows: list[ThroughputRow]) -> str:
    """The throughput rows as an aligned table (skipped rows say why below it)."""
    header = ("tokenizer", "corpus", "lines", "MB", "enc hf", "enc tk", "enc x",
              "batch hf", "batch tk", "batch x", "mismatch", "target")
    body = []
    for r in rows:
        if r.skipped:
            body.append((r.tokenizer, r.corpus, "-", "-", "-", "-", "-", "-", "-", "-", "-", "skipped"))
            continue
        body.append((r.tokenizer, r.corpus, str(r.lines), f"{r.megabytes:.2f}",
                     fmt(r.encode_hfcompat, ".2f"), fmt(r.encode_tokenizers, ".2f"), fmt(r.encode_ratio, ".2f"),
                     fmt(r.batch_hfcompat, ".2f"), fmt(r.batch_tokenizers, ".2f"), fmt(r.batch_ratio, ".2f"),
                     str(r.mismatches), r.target_status()))
    return "\n".join([render_table(header, body, left=2)] + skip_notes(rows))


def skip_notes(rows: list[ThroughputRow] | list[SentencePieceRow]) -> list[str]:
    """One line per (tokenizer, reason) saying which corpora were skipped and why."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for r in rows:
        if r.skipped:
            grouped.setdefault((r.tokenizer, r.skipped), []).append(r.corpus)
    return [f"skipped {name} on {', '.join(corpora)}: {reason}" for (name, reason), corpora in grouped.items()]


def sentencepiece_table(rows: list[SentencePieceRow]) -> str:
    """The SentencePiece rows as an aligned table (MB/s; x = hfcompat / sentencepiece)."""
    header = ("model", "corpus", "lines", "MB", "hfcompat", "spm", "tk json", "x spm", "mismatch", "target")
    body = []
    for r in rows:
        if r.skipped:
            body.append((r.tokenizer, r.corpus, "-", "-", "-", "-", "-", "-", "-", "skipped"))
            continue
        status = "" if r.target is None or r.ratio is None else \
            f">={r.target:.1f}x " + ("ok" if r.ratio >= r.target else "MISS")
        body.append((r.tokenizer, r.corpus, str(r.lines), f"{r.megabytes:.2f}", fmt(r.hfcompat, ".2f"),
                     fmt(r.sentencepiece, ".2f"), fmt(r.tokenizers, ".2f"), fmt(r.ratio, ".2f"),
                     str(r.mismatches), status))
    return "\n".join([render_table(header, body, left=2)] + skip_notes(rows))


def timing_table(rows: list[TimingRow]) -> str:
    """The one-off timings as an aligned table."""
    header = ("measurement", "hfcompat s", "tokenizers s", "x", "target", "check")
    body = [(r.name, fmt(r.hfcompat_s, ".3f"), fmt(r.tokenizers_s, ".3f"), fmt(r.ratio, ".2f"),
             r.target_status(), r.check or ("skipped" if r.skipped else "")) for r in rows]
    notes = [f"skipped {r.name}: {r.skipped}" for r in rows if r.skipped]
    return "\n".join([render_table(header, body, left=1)] + notes)


def settings(args: argparse.Namespace) -> dict[str, Any]:
    """What the numbers depend on, printed in the header and stored in --json."""
    return {
        "python": platform.python_version(),
        "hfcompat": hfcompat.__version__,
        "tokenizers": getattr(tokenizers, "__version__", None),
        "tiktoken": getattr(tiktoken, "__version__", None),
        "RAYON_NUM_THREADS": os.environ["RAYON_NUM_THREADS"],
        "TOKENIZERS_PARALLELISM": os.environ["TOKENIZERS_PARALLELISM"],
        "repeat": args.repeat,
        "clock": "process CPU time" if args.cpu_time else "wall time",
        "timed": "encode calls only" if args.unread else "encode calls and reading each encoding's ids",
        "lines_per_corpus": QUICK_LINES if args.quick else "all",
        "shared": str(SHARED),
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description="hfcompat vs tokenizers encoding throughput")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs after the warm-up (best is kept)")
    parser.add_argument("--quick", action="store_true", help=f"only the first {QUICK_LINES} lines of each corpus")
    parser.add_argument("--only", default="", help="comma-separated subset of: "
                        + ",".join([s.key for s in SUBJECTS + SENTENCEPIECE_SUBJECTS]
                                   + ["load", "long", "cl100k", "cl100k-load"]))
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of tables")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time with this process's CPU time instead of wall time (shared machines)")
    parser.add_argument("--unread", action="store_true",
                        help="time the encode calls without reading the ids of their encodings")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the selected measurements and print them."""
    args = parse_args(argv)
    global clock, READ_IDS
    clock = time.process_time if args.cpu_time else time.perf_counter
    READ_IDS = not args.unread
    only = {key.strip() for key in args.only.split(",") if key.strip()}
    selected = [s for s in SUBJECTS if not only or s.key in only]
    info = settings(args)
    if not args.json:
        print("hfcompat vs tokenizers, single-threaded encoding throughput (MB/s of UTF-8 input)")
        print(", ".join(f"{k}={v}" for k, v in info.items()))
        print(TARGETS_LINE)
        print("saved truncation/padding (GPT-2's tokenizer.json truncates to 50) is turned off on both sides\n")

    def progress(what: str) -> None:
        print(f"  measuring {what} ...", file=sys.stderr, flush=True)

    rows = throughput_rows(selected, QUICK_LINES if args.quick else None, args.repeat, progress)
    spm_selected = [s for s in SENTENCEPIECE_SUBJECTS if not only or s.key in only]
    spm_rows = sentencepiece_rows(spm_selected, QUICK_LINES if args.quick else None, args.repeat, progress)
    timings = []
    if not only or "load" in only:
        progress("load time")
        timings.append(measure_load(args.repeat))
    if not only or "long" in only:
        progress("long piece")
        timings.append(measure_long_piece())
    cl100k_rows = []
    if not only or "cl100k" in only:
        cl100k_rows = measure_cl100k(QUICK_LINES if args.quick else None, args.repeat, progress)
    cl100k_loads = []
    if not only or "cl100k-load" in only:
        progress("cl100k load time and memory")
        cl100k_loads = measure_cl100k_load()
    if args.json:
        document = {
            "settings": info,
            "throughput": [{**asdict(r), "encode_ratio": r.encode_ratio, "batch_ratio": r.batch_ratio}
                           for r in rows],
            "timings": [{**asdict(t), "ratio": t.ratio} for t in timings],
            "cl100k": [{**asdict(r), "tiktoken_ratio": r.tiktoken_ratio, "tokenizers_ratio": r.tokenizers_ratio}
                       for r in cl100k_rows],
            "cl100k_load": [asdict(r) for r in cl100k_loads],
            "sentencepiece": [{**asdict(r), "ratio": r.ratio} for r in spm_rows],
        }
        print(json.dumps(document, indent=2))
        return 0
    if rows:
        print(throughput_table(rows))
    if spm_rows:
        print()
        print("SentencePiece .model files: hfcompat vs sentencepiece vs the converted tokenizer.json "
              "under tokenizers (MB/s, one encode call per line); targets BPE >= 1.0x, Unigram >= 0.5x "
              "sentencepiece")
        print(sentencepiece_table(spm_rows))
    if timings:
        print()
        print(timing_table(timings))
    if cl100k_rows or cl100k_loads:
        print()
        print(cl100k_table(cl100k_rows, cl100k_loads))
    return 0


if __name__ == "__main__":
    sys.exit(main())
