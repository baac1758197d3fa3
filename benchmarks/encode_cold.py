"""Cold encoding speed: a freshly loaded tokenizer per timed pass, on text it has not seen.

hfcompat on both backends (the compiled core and pure Python) beside the official libraries, in
one run, single-threaded, timed by process CPU time. Loading is not timed; everything a pass
caches (words, pieces) starts empty, on every side. Each row checks that all sides give the same
ids (and, against tokenizers, the same offsets).

Run: .venv/bin/python benchmarks/encode_cold.py [--repeat N] [--lines N] [--only KEYS] [--corpora NAMES]
See benchmarks/README.md ("Cold encoding").
"""

from __future__ import annotations

import argparse
import sys
import sysconfig
import tempfile
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from encode import SHARED, fmt, official_tokenizer, read_lines, render_table, tiktoken_cl100k  # sets RAYON_NUM_THREADS=1

import hfcompat
from hfcompat import _backend

CORPORA = {
    "English": "corpora/botchan.txt",
    "Chinese": "corpora/icwb2/pku_test.utf8",
    "Japanese": "corpora/wagahaiwa_nekodearu.txt",
    "code": "stdlib",  # the standard library's own top-level modules, sorted by name
}
CODE_LINES = 12_000


@dataclass
class Side:
    """One encoder of a row: how to load it fresh, and how to encode one line into comparable output."""

    name: str
    load: Callable[[], Any]
    encode: Callable[[Any, str], Any]
    backend: str | None = None  # hfcompat's backend for this side


@dataclass
class Subject:
    """A tokenizer file measured on every side that can read it."""

    key: str
    name: str
    sides: Callable[[Path], list[Side]]  # given a scratch directory


@dataclass
class Row:
    """The cold speed of every side on one corpus (MB/s of process CPU time, best pass)."""

    subject: str
    corpus: str
    megabytes: float
    speeds: dict[str, float] = field(default_factory=dict)
    mismatches: int = 0  # lines where any side differs from the first


def code_lines(limit: int) -> list[str]:
    """The first `limit` lines of the standard library's top-level modules, in name order."""
    lines: list[str] = []
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        lines += path.read_text(encoding="utf-8", errors="replace").split("\n")
        if len(lines) >= limit:
            break
    return lines[:limit]


def corpus_lines(corpus: str, limit: int | None) -> list[str]:
    """The lines of one corpus (`limit` lines at most)."""
    if CORPORA[corpus] == "stdlib":
        return code_lines(limit or CODE_LINES)
    return read_lines(SHARED / CORPORA[corpus], limit)


def hfcompat_sides(path: Path, encode: Callable[[Any, str], Any]) -> list[Side]:
    """hfcompat on each backend this installation has, loading `path`."""
    def loader() -> Any:
        """A fresh hfcompat tokenizer, truncation and padding turned off."""
        tokenizer = hfcompat.load(path)
        tokenizer.no_truncation()
        tokenizer.no_padding()
        return tokenizer
    return [Side(f"hfcompat {name}", loader, encode, name) for name in _backend.available()]


def encoding_fields(encoding: Any) -> tuple[list[int], list[tuple[int, int]]]:
    """The ids and offsets of an Encoding of either library (reading them is part of the cost)."""
    return list(encoding.ids), [tuple(offsets) for offsets in encoding.offsets]


def official_tokenizers(relative: str) -> Callable[[], Any]:
    """A loader of a fresh tokenizers.Tokenizer for a file under ../shared/refs (truncation and
    padding off; a BERT vocab.txt through BertWordPieceTokenizer, as encode.py loads it)."""
    return lambda: official_tokenizer(relative)


def encode_fields(tokenizer: Any, line: str) -> tuple[list[int], list[tuple[int, int]]]:
    """An Encoding's ids and offsets, from either library."""
    return encoding_fields(tokenizer.encode(line))


def tokenizers_sides(relative: str) -> Callable[[Path], list[Side]]:
    """The sides of a file tokenizers reads: hfcompat and tokenizers, Encodings with ids and offsets read."""
    def sides(scratch: Path) -> list[Side]:
        """hfcompat on each backend, then tokenizers."""
        return [*hfcompat_sides(SHARED / "refs" / relative, encode_fields),
                Side("tokenizers", official_tokenizers(relative), encode_fields)]
    return sides


def llama3_sides(scratch: Path) -> list[Side]:
    """Llama 3's tokenizer.json (Split with its pattern, then ByteLevel), as hfcompat converts
    llama.cpp's ggml-vocab-llama-bpe.gguf: hfcompat and tokenizers read the same file."""
    import tokenizers

    path = scratch / "llama3.json"
    if not path.exists():
        hfcompat.convert(SHARED / "refs/gguf/ggml-vocab-llama-bpe.gguf", path)
    load = lambda: tokenizers.Tokenizer.from_file(str(path))  # noqa: E731
    return [*hfcompat_sides(path, encode_fields), Side("tokenizers", load, encode_fields)]


def cl100k_sides(scratch: Path) -> list[Side]:
    """cl100k_base from its rank file: hfcompat's and tiktoken's encode_ordinary (ids)."""
    import tiktoken

    shared = tiktoken_cl100k(scratch)

    def load_tiktoken() -> Any:
        """A fresh tiktoken Encoding of cl100k_base (get_encoding would hand back the same one)."""
        return tiktoken.Encoding(f"cl100k_cold_{time.perf_counter_ns()}", pat_str=shared._pat_str,
                                 mergeable_ranks=shared._mergeable_ranks, special_tokens=shared._special_tokens)

    encode = lambda tokenizer, line: tokenizer.encode_ordinary(line)  # noqa: E731
    return [*hfcompat_sides(SHARED / "refs/tiktoken/cl100k_base.tiktoken", encode), Side("tiktoken", load_tiktoken, encode)]


def encoding_ids(tokenizer: Any, line: str) -> tuple[list[int], int]:
    """The ids of hfcompat's Encoding of a line and its count of offsets, its tokens and offsets
    read (the offsets themselves are not compared: sentencepiece gives a leading "▁" an empty
    span, tokenizers the span of the char after it)."""
    encoding = tokenizer.encode(line)
    offsets = [tuple(span) for span in encoding.offsets]
    return list(encoding.ids), min(len(encoding.tokens), len(offsets))


def plain_ids(tokenizer: Any, line: str) -> list[int]:
    """hfcompat's ids of a line without an Encoding (`encode_ids`)."""
    return tokenizer.encode_ids(line)


def sentencepiece_ids(processor: Any, line: str) -> list[int]:
    """sentencepiece's ids of a line (`encode`)."""
    return processor.encode(line)


def sentencepiece_mapping(processor: Any, line: str) -> tuple[list[int], int]:
    """sentencepiece's counterpart of an Encoding: ids with their pieces and char offsets
    (`encode(line, return_type="offset_mapping")`), as `encoding_ids` compares them."""
    mapping = processor.encode(line, return_type="offset_mapping")
    return mapping["ids"], min(len(mapping["pieces"]), len(mapping["offsets"]))


def sentencepiece_sides(relative: str, encode: Callable[[Any, str], Any],
                        reference: Callable[[Any, str], Any]) -> Callable[[Path], list[Side]]:
    """The sides of a SentencePiece .model: hfcompat's ids (by `encode`) and sentencepiece's (by
    `reference`)."""
    def sides(scratch: Path) -> list[Side]:
        """hfcompat on each backend, then sentencepiece."""
        import sentencepiece

        path = SHARED / "refs" / relative
        load_spm = lambda: sentencepiece.SentencePieceProcessor(model_file=str(path))  # noqa: E731
        return [*hfcompat_sides(path, encode), Side("sentencepiece", load_spm, reference)]
    return sides


SUBJECTS = [
    Subject("gpt2", "GPT-2 tokenizer.json (Encoding)", tokenizers_sides("gpt2/tokenizer.json")),
    Subject("cl100k", "cl100k_base encode_ordinary", cl100k_sides),
    Subject("llama3", "Llama 3 tokenizer.json (Encoding)", llama3_sides),
    Subject("llama2", "Llama-2 .model (BPE, Encoding vs offset_mapping)",
            sentencepiece_sides("llama2/tokenizer.model", encoding_ids, sentencepiece_mapping)),
    Subject("llama2-ids", "Llama-2 .model (BPE, encode_ids)",
            sentencepiece_sides("llama2/tokenizer.model", plain_ids, sentencepiece_ids)),
    Subject("bert", "BERT uncased vocab.txt (WordPiece, Encoding)", tokenizers_sides("bert-base-uncased/vocab.txt")),
    Subject("t5", "T5 tokenizer.json (Unigram, Encoding)", tokenizers_sides("t5/tokenizer.json")),
    Subject("albert", "ALBERT .model (Unigram, Encoding vs offset_mapping)",
            sentencepiece_sides("albert/spiece.model", encoding_ids, sentencepiece_mapping)),
    Subject("albert-ids", "ALBERT .model (Unigram, encode_ids)",
            sentencepiece_sides("albert/spiece.model", plain_ids, sentencepiece_ids)),
]


def cold_pass(side: Side, lines: list[str]) -> tuple[float, list[Any]]:
    """(CPU seconds, outputs) of one pass over `lines` by a freshly loaded tokenizer of `side`."""
    with _backend.use(side.backend) if side.backend else nullcontext():
        tokenizer = side.load()
        encode = side.encode
        start = time.process_time()
        outputs = [encode(tokenizer, line) for line in lines]
        return time.process_time() - start, outputs


def measure(subject: Subject, corpus: str, lines: list[str], repeat: int, scratch: Path) -> Row:
    """Every side of `subject` on `lines`, taking turns pass by pass; each side's fastest pass."""
    sides = subject.sides(scratch)
    row = Row(subject.name, corpus, sum(len(line.encode("utf-8")) for line in lines) / 1e6)
    best = {side.name: float("inf") for side in sides}
    outputs: dict[str, list[Any]] = {}
    for _ in range(repeat):
        for side in sides:
            seconds, outputs[side.name] = cold_pass(side, lines)
            best[side.name] = min(best[side.name], seconds)
    row.speeds = {name: row.megabytes / seconds for name, seconds in best.items()}
    first, *others = outputs.values()
    row.mismatches = sum(1 for i, expected in enumerate(first) if any(o[i] != expected for o in others))
    return row


def table(rows: list[Row]) -> str:
    """The rows as aligned tables, one per subject (its sides differ)."""
    parts = []
    for subject in dict.fromkeys(row.subject for row in rows):
        chosen = [row for row in rows if row.subject == subject]
        names = list(chosen[0].speeds)
        reference = names[-1]
        ratios = [f"{name.split()[-1]} x" for name in names[:-1]]
        header = (subject, "MB", *names, *ratios, "mismatch")
        body = [(row.corpus, f"{row.megabytes:.2f}", *(fmt(row.speeds[name], ".2f") for name in names),
                 *(fmt(row.speeds[name] / row.speeds[reference], ".2f") for name in names[:-1]),
                 str(row.mismatches)) for row in chosen]
        parts.append(render_table(header, body, left=1))
    return "\n\n".join(parts)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description="cold encoding speed: hfcompat (both backends) vs the "
                                                 "official libraries")
    parser.add_argument("--repeat", type=int, default=3, help="passes per side (the fastest is kept)")
    parser.add_argument("--lines", type=int, default=None, help="only the first N lines of each corpus")
    parser.add_argument("--only", default="", help="comma-separated subset of: "
                        + ",".join(subject.key for subject in SUBJECTS))
    parser.add_argument("--corpora", default="", help="comma-separated subset of: " + ",".join(CORPORA))
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure every selected subject on every selected corpus and print the tables."""
    args = parse_args(argv)
    only = {key for key in args.only.split(",") if key}
    corpora = [name for name in CORPORA if not args.corpora or name in args.corpora.split(",")]
    print(f"cold encoding, MB/s of process CPU time (best of {args.repeat} passes, a fresh tokenizer each); "
          f"x = hfcompat / the last column; hfcompat backends: {', '.join(_backend.available())}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="hfcompat-cold-") as scratch:
        for subject in SUBJECTS:
            if only and subject.key not in only:
                continue
            for corpus in corpora:
                print(f"  measuring {subject.name} on {corpus} ...", file=sys.stderr, flush=True)
                rows.append(measure(subject, corpus, corpus_lines(corpus, args.lines), args.repeat, Path(scratch)))
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
