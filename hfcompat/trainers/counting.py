"""The texts of a training source, and the words a tokenizer's pipeline makes of them, counted.

Counting streams its input; with `workers` > 1 it runs in processes over chunks of lines and
merges the chunks in input order, so the counts (and their order) equal one process's.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from pathlib import Path
from typing import Any, Iterable, Iterator, Protocol, Sequence

from ..errors import FormatError
from .progress import progress_bar

CHUNK_LINES = 2000
TEXT_FILE_SUFFIXES = {".txt", ".text", ".utf8", ".md", ".json", ".jsonl", ".csv", ".tsv", ".raw"}


class Pipeline(Protocol):
    """What training reads and sets on a tokenizer (a `Tokenizer` is one): the parts that make
    words, and the model it trains."""

    normalizer: Any
    pre_tokenizer: Any
    added_vocabulary: Any
    model: Any

    def add_special_tokens(self, tokens: Iterable[Any]) -> int:
        """Add special tokens (those the trainer names)."""


# --------------------------------------------------------------------------- input


def iter_texts(source: Any) -> Iterator[str]:
    """The texts of a training source: a file path, a list of paths, or an iterable of texts.

    A file yields its lines with their "\\n" (as `tokenizers` reads files); an iterable may also
    yield lists of texts (batches), like a `datasets.Dataset` column read in batches.
    """
    if isinstance(source, (str, os.PathLike)):
        yield from _file_lines(Path(source))
        return
    if isinstance(source, (list, tuple)) and source and _all_files(source):
        for path in source:
            yield from _file_lines(Path(path))
        return
    if isinstance(source, (list, tuple)):
        _refuse_missing_files(source)
    for item in source:
        if isinstance(item, str):
            yield item
        else:
            yield from item


def _all_files(items: Sequence[Any]) -> bool:
    """True when every item is a path object, or a string naming an existing file."""
    return all(isinstance(item, os.PathLike) or (isinstance(item, str) and os.path.isfile(item))
               for item in items)


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
    return bool(text) and not any(char.isspace() for char in text) and (
        os.sep in text or Path(text).suffix.lower() in TEXT_FILE_SUFFIXES)


def _file_lines(path: Path) -> Iterator[str]:
    """The lines of a UTF-8 file, each with its "\\n" (split on "\\n" only)."""
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise FormatError(f"cannot read: {error.strerror}", path=str(path)) from None
    with handle:
        for number, line in enumerate(handle, 1):
            try:
                yield line.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise FormatError(f"line {number} is not UTF-8 ({exc.reason})", path=str(path),
                                  field="text") from None


def source_size(source: Any) -> int | None:
    """How many texts a source holds, when it says so without being read (for progress)."""
    if isinstance(source, (str, os.PathLike)) or (isinstance(source, (list, tuple)) and _all_files(source)):
        return None
    try:
        return len(source)
    except TypeError:
        return None


# --------------------------------------------------------------------------- counting


def words_of(tokenizer: Pipeline, text: str) -> list[str]:
    """The words `tokenizer` makes of `text`: added tokens split out, normalized, pre-tokenized."""
    words = _plain_words(tokenizer, text)
    if words is not None:
        return words
    normalizer = tokenizer.normalizer
    normalize = normalizer.normalize if normalizer is not None else None
    pretokenized = tokenizer.added_vocabulary.extract_and_normalize(normalize, text)
    if tokenizer.pre_tokenizer is not None:
        tokenizer.pre_tokenizer.pre_tokenize(pretokenized)
    return [split.normalized.normalized for split in pretokenized.splits]


def _plain_words(tokenizer: Pipeline, text: str) -> list[str] | None:
    """words_of from plain strings, with no alignments (the usual case when counting): when no
    added token occurs and the pre-tokenizer can split a plain string; None otherwise."""
    added = tokenizer.added_vocabulary
    if added.may_match(text, normalized=False):
        return None
    normalized = tokenizer.normalizer.normalize_str(text) if tokenizer.normalizer is not None else text
    if not normalized:
        return []
    if added.may_match(normalized, normalized=True):
        return None
    pre_tokenizer = tokenizer.pre_tokenizer
    words = pre_tokenizer.words(normalized) if pre_tokenizer is not None else [normalized]
    return None if words is None else [word for word in words if word]


def count_chunk(tokenizer: Pipeline, texts: Iterable[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Word counts of some texts, in order of first appearance, and how often each word was a text's last."""
    counts: dict[str, int] = {}
    ends: dict[str, int] = {}
    get = counts.get
    for text in texts:
        words = words_of(tokenizer, text)
        for word in words:
            counts[word] = get(word, 0) + 1
        if words:
            ends[words[-1]] = ends.get(words[-1], 0) + 1
    return counts, ends


def count_words(tokenizer: Pipeline, texts: Iterable[str], *, show_progress: bool = True,
                total: int | None = None, workers: int = 1) -> dict[str, int]:
    """Count the words of every text once, in order of first appearance (streamed)."""
    return count_words_and_ends(tokenizer, texts, show_progress=show_progress, total=total, workers=workers)[0]


def count_words_and_ends(tokenizer: Pipeline, texts: Iterable[str], *, show_progress: bool = True,
                         total: int | None = None, workers: int = 1) -> tuple[dict[str, int], dict[str, int]]:
    """count_words, and how often each word was the last of its text (the Unigram trainer's seed
    tells the end of a sentence from the next word, as sentencepiece's does)."""
    counts: dict[str, int] = {}
    ends: dict[str, int] = {}
    with progress_bar(show_progress, total, "Count words", unit="lines") as bar:
        for (chunk_counts, chunk_ends), lines in _chunk_counts(tokenizer, iter(texts), workers):
            for word, count in chunk_counts.items():
                counts[word] = counts.get(word, 0) + count
            for word, count in chunk_ends.items():
                ends[word] = ends.get(word, 0) + count
            bar.update(lines)
    return counts, ends


def _chunk_counts(tokenizer: Pipeline, texts: Iterator[str],
                  workers: int) -> Iterator[tuple[tuple[dict[str, int], dict[str, int]], int]]:
    """count_chunk of successive chunks of lines and their sizes, in input order (in worker
    processes if asked)."""
    chunks = iter(lambda: list(islice(texts, CHUNK_LINES)), [])
    if workers <= 1:
        for chunk in chunks:
            yield count_chunk(tokenizer, chunk), len(chunk)
        return
    with ProcessPoolExecutor(workers, initializer=_set_worker_tokenizer, initargs=(tokenizer,)) as pool:
        pending: deque[tuple[Future, int]] = deque()
        try:
            for chunk in chunks:
                pending.append((pool.submit(_count_in_worker, chunk), len(chunk)))
                if len(pending) >= 2 * workers:
                    future, size = pending.popleft()
                    yield future.result(), size
            while pending:
                future, size = pending.popleft()
                yield future.result(), size
        except BaseException:
            for future, _ in pending:
                future.cancel()
            raise


_WORKER_TOKENIZER: Any = None


def _set_worker_tokenizer(tokenizer: Pipeline) -> None:
    """Keep the tokenizer in a worker process (sent once, not per chunk).

    Workers ignore Ctrl-C: the parent stops them, so one interrupt gives one clean stop.
    """
    global _WORKER_TOKENIZER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_TOKENIZER = tokenizer


def _count_in_worker(chunk: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """count_chunk in a worker process."""
    return count_chunk(_WORKER_TOKENIZER, chunk)
