"""The texts of a training source, read as a stream: text files (plain, gzip or zstd; a glob names
several), JSON lines and Parquet files (one column, `text_column`), a `datasets` Dataset or
IterableDataset (one column, streamed in batches), or any iterable of texts or batches of texts.

Each format's reading is one small function here. A text file yields its lines with their "\\n"
(as `tokenizers` reads files); a JSON lines or Parquet row and a dataset row yield the column's
string, rows whose value is null are skipped. Bad input is a FormatError naming the file (and the
line or the column). zstd needs the `zstandard` package and Parquet `pyarrow` (extras
hfcompat[zstd] and hfcompat[parquet]), imported only when such a file is read.
"""

from __future__ import annotations

import glob
import gzip
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator, Sequence

from ..errors import FormatError, MissingDependency, import_optional

# A string with one of these suffixes in a list of sources is taken for a file name.
TEXT_FILE_SUFFIXES = {".txt", ".text", ".utf8", ".md", ".json", ".jsonl", ".ndjson", ".csv", ".tsv", ".raw",
                      ".parquet", ".gz", ".zst", ".zstd"}
JSON_LINES_SUFFIXES = {".jsonl", ".json", ".ndjson"}
COMPRESSED_SUFFIXES = {".gz", ".zst", ".zstd"}
GLOB_CHARS = "*?["
BATCH_ROWS = 1000  # rows per batch read from a Parquet file or a dataset
EXTRAS = {"zstandard": "zstd", "pyarrow.parquet": "parquet"}  # module -> the hfcompat extra that installs it
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class ReadMeter:
    """How much input a source has read so far (for progress): bytes of files, chars of texts."""

    bytes: int = 0


def optional_module(name: str, what: str) -> Any:
    """Import an optional dependency, or raise MissingDependency naming the extra that brings it."""
    return import_optional(name, EXTRAS[name], what)


# --------------------------------------------------------------------------- what a source is


def is_glob(text: str) -> bool:
    """True when a string is a file pattern (has * ? or [) rather than a file name."""
    return any(char in text for char in GLOB_CHARS)


def _names_files(item: Any) -> bool:
    """True for a path object, a string naming an existing file, or a path-like glob that matches
    one ("data/*.txt", "*.jsonl"; a text such as "*" is not taken for a pattern)."""
    if isinstance(item, os.PathLike):
        return True
    return isinstance(item, str) and (os.path.isfile(item) or (
        is_glob(item) and _looks_like_path(item) and bool(glob.glob(item))))


def source_files(source: Any) -> list[Path] | None:
    """The files a source names (a path, a glob, or a list of them), in order; None when the source
    is texts. A glob's files come sorted; a glob matching nothing is a FormatError."""
    if isinstance(source, (str, os.PathLike)):
        items: Sequence[Any] = [source]
    elif isinstance(source, (list, tuple)) and source and all(_names_files(item) for item in source):
        items = source
    else:
        if isinstance(source, (list, tuple)):
            _refuse_missing_files(source)
        return None
    files: list[Path] = []
    for item in items:
        files.extend(expand(item))
    return files


def expand(item: str | os.PathLike) -> list[Path]:
    """The files one path or glob names."""
    if isinstance(item, str) and is_glob(item) and not os.path.exists(item):
        matches = sorted(glob.glob(item, recursive=True))
        if not matches:
            raise FormatError("no file matches this pattern", path=item)
        return [Path(match) for match in matches]
    return [Path(item)]


def _refuse_missing_files(items: Sequence[Any]) -> None:
    """A list meant as file names but naming a missing file is an error, not training text."""
    missing = [item for item in items if isinstance(item, os.PathLike)
               or (isinstance(item, str) and _looks_like_path(item) and not os.path.isfile(item))]
    if missing and (len(missing) == len(items) or any(
            isinstance(item, str) and os.path.isfile(item) for item in items)):
        raise FormatError("no such file (a list of strings is read as file names when they name "
                          "files; pass an iterator for texts)", path=str(missing[0]))


def _looks_like_path(text: str) -> bool:
    """A string with no whitespace that has a directory part or a text-file suffix."""
    return bool(text) and text.split(maxsplit=1) == [text] and (  # no whitespace, in one C call
        os.sep in text or Path(text).suffix.lower() in TEXT_FILE_SUFFIXES)


def is_dataset(source: Any) -> bool:
    """True for a `datasets` Dataset or IterableDataset (told by what it offers, not imported)."""
    return hasattr(source, "select_columns") and hasattr(source, "iter") and hasattr(source, "column_names")


def source_size(source: Any) -> int | None:
    """How many texts a source holds, when it says so without being read (for progress)."""
    if isinstance(source, (str, os.PathLike)) or (isinstance(source, (list, tuple)) and source
                                                 and all(_names_files(item) for item in source)):
        return None
    try:
        return len(source)
    except TypeError:
        return None


# --------------------------------------------------------------------------- reading


def iter_texts(source: Any, text_column: str | None = None, meter: ReadMeter | None = None) -> Iterator[str]:
    """The texts of a training source, streamed (see the module's docstring); `meter` counts what was read."""
    meter = meter if meter is not None else ReadMeter()
    files = source_files(source)
    if files is not None:
        for path in files:
            yield from file_texts(path, text_column, meter)
    elif is_dataset(source):
        yield from dataset_texts(source, text_column or "text", meter)
    else:
        number = 0
        for item in source:
            for text in [item] if isinstance(item, str) else item:
                number += 1
                meter.bytes += len(text)
                yield unicode_text(text, f"text {number} of the source")


def unicode_text(text: str, where: str, path: Path | None = None) -> str:
    """`text`, unless it holds a lone surrogate (a str can, JSON's \\ud800 escape too; UTF-8,
    tokenizers and sentencepiece cannot take one): then an error naming `where` and the char."""
    if not text.isascii():
        found = _SURROGATE.search(text)
        if found is not None:
            raise FormatError(f"{where} holds a lone surrogate U+{ord(found.group()):04X} at char {found.start()}, "
                              "which is not Unicode text (UTF-8 cannot encode it)",
                              path=None if path is None else str(path), field="text")
    return text


def file_texts(path: Path, text_column: str | None = None, meter: ReadMeter | None = None) -> Iterator[str]:
    """The texts of one file, by its suffix: Parquet rows, JSON lines rows (when `text_column` is
    given), else lines of text; .gz and .zst files are decompressed as they are read."""
    meter = meter if meter is not None else ReadMeter()
    inner = format_suffix(path)
    if inner == ".parquet":
        yield from parquet_texts(path, text_column or "text", meter)
        return
    with _open_binary(path) as handle:
        if text_column is not None and inner in JSON_LINES_SUFFIXES:
            yield from json_lines_texts(handle, path, text_column, meter)
        else:
            yield from _decoded_lines(handle, path, meter)


def format_suffix(path: Path) -> str:
    """The suffix that names a file's format, under a compression suffix (".jsonl" of x.jsonl.gz)."""
    suffixes = [suffix.lower() for suffix in path.suffixes]
    if suffixes and suffixes[-1] in COMPRESSED_SUFFIXES:
        suffixes.pop()
    return suffixes[-1] if suffixes else ""


def _open_binary(path: Path) -> IO[bytes]:
    """A file opened for reading bytes, decompressed as read when it ends in .gz or .zst."""
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise FormatError(f"cannot read: {error.strerror}", path=str(path)) from None
    suffix = path.suffix.lower()
    if suffix == ".gz":
        return gzip.GzipFile(fileobj=handle, mode="rb")
    if suffix in (".zst", ".zstd"):
        try:
            zstandard = optional_module("zstandard", f"{path}: zstd-compressed text")
        except MissingDependency:
            handle.close()
            raise
        return zstandard.ZstdDecompressor().stream_reader(handle, closefd=True, read_across_frames=True)
    return handle


def _raw_lines(handle: IO[bytes], path: Path) -> Iterator[bytes]:
    """The lines of a binary stream, each with its "\\n"; a damaged compressed file is a FormatError."""
    try:
        yield from _split_lines(handle)
    except (OSError, EOFError) as error:
        raise FormatError(f"cannot read: {error}", path=str(path)) from None


def _split_lines(handle: IO[bytes]) -> Iterator[bytes]:
    """Lines split on b"\\n" only (zstd's stream reader has no readline), read in 1 MiB blocks."""
    rest = b""
    while block := handle.read(1 << 20):
        lines = (rest + block).split(b"\n")
        rest = lines.pop()
        for line in lines:
            yield line + b"\n"
    if rest:
        yield rest


def _decoded_lines(handle: IO[bytes], path: Path, meter: ReadMeter) -> Iterator[str]:
    """The lines of a UTF-8 stream, each with its "\\n"; a line that is not UTF-8 is an error naming it."""
    for number, line in enumerate(_raw_lines(handle, path), 1):
        meter.bytes += len(line)
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FormatError(f"line {number} is not UTF-8 ({exc.reason})", path=str(path),
                              field="text") from None


def json_lines_texts(handle: IO[bytes], path: Path, text_column: str, meter: ReadMeter) -> Iterator[str]:
    """The `text_column` string of each JSON object line (blank lines and null values skipped)."""
    for number, line in enumerate(_raw_lines(handle, path), 1):
        meter.bytes += len(line)
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise FormatError(f"line {number} is not a JSON object ({error})", path=str(path)) from None
        if not isinstance(row, dict) or text_column not in row:
            raise FormatError(f"line {number} has no {text_column!r} key (text_column)", path=str(path),
                              field=text_column)
        text = row[text_column]
        if text is None:
            continue
        if not isinstance(text, str):
            raise FormatError(f"line {number}: expected a string, found {type(text).__name__}",
                              path=str(path), field=text_column)
        yield unicode_text(text, f"line {number}", path)


def parquet_texts(path: Path, text_column: str, meter: ReadMeter) -> Iterator[str]:
    """The `text_column` strings of a Parquet file, read a batch of rows at a time (nulls skipped)."""
    parquet = optional_module("pyarrow.parquet", f"{path}: Parquet")
    try:
        table = parquet.ParquetFile(path)
    except FileNotFoundError:
        raise FormatError("cannot read: No such file or directory", path=str(path)) from None
    except Exception as error:  # noqa: BLE001 - pyarrow's errors for a file that is not Parquet vary
        raise FormatError(f"not a Parquet file ({error})", path=str(path)) from None
    names = table.schema_arrow.names
    if text_column not in names:
        raise FormatError(f"no column {text_column!r} (text_column); the columns are {names}",
                          path=str(path), field=text_column)
    kind = str(table.schema_arrow.field(text_column).type)
    if kind not in ("string", "large_string"):
        raise FormatError(f"expected a column of strings, found {kind}", path=str(path), field=text_column)
    with table:
        for batch in table.iter_batches(batch_size=BATCH_ROWS, columns=[text_column]):
            column = batch.column(0)
            meter.bytes += column.nbytes
            yield from (text for text in column.to_pylist() if text is not None)


def dataset_texts(dataset: Any, text_column: str, meter: ReadMeter) -> Iterator[str]:
    """The `text_column` strings of a `datasets` Dataset or IterableDataset, streamed in batches
    (only that column is read; nulls skipped)."""
    names = dataset.column_names
    if names is not None and text_column not in names:
        raise FormatError(f"the dataset has no column {text_column!r} (text_column); its columns are "
                          f"{list(names)}", field=text_column)
    for batch in dataset.select_columns([text_column]).iter(batch_size=BATCH_ROWS):
        for text in batch[text_column]:
            if text is None:
                continue
            if not isinstance(text, str):
                raise FormatError(f"expected strings, found {type(text).__name__}", field=text_column)
            meter.bytes += len(text)
            yield text

