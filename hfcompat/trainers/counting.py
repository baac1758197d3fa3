"""The words a tokenizer's pipeline makes of texts, counted (the texts come from sources.py).

Counting streams its input; with `workers` > 1 it runs in processes over chunks of lines, and
with a Dask `client` on the cluster (one task per file, each read by the worker that counts it,
or one per chunk of lines read here when the source is not files), and adds the parts in input
order, so the counts (and their order) equal one process's. Memory holds the distinct words
only (and a few chunks of lines in flight); `max_words` bounds them too, approximately.
Dask is never imported: the client is used through its submit/scatter/result methods.
"""

from __future__ import annotations

import random
import signal
from collections import Counter, deque
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Protocol

from .progress import progress_bar
from .sources import ReadMeter, iter_texts, source_files
from .word_counts import WordCounts

CHUNK_LINES = 2000
CLUSTER_CHUNK_LINES = 20_000  # lines per task sent to a Dask cluster (fewer, larger messages)


class Pipeline(Protocol):
    """What training reads and sets on a tokenizer (a `Tokenizer` is one): the parts that make
    words, and the model it trains."""

    normalizer: Any
    pre_tokenizer: Any
    added_vocabulary: Any
    model: Any

    def add_special_tokens(self, tokens: Iterable[Any]) -> int:
        """Add special tokens (those the trainer names)."""


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


def count_chunk(tokenizer: Pipeline, texts: Iterable[str]) -> WordCounts:
    """Word counts of some texts, in order of first appearance, and how often each word was a text's last."""
    counts: Counter[str] = Counter()  # a dict: first-seen order; `update` counts a list in C
    ends: dict[str, int] = {}
    number = 0
    for number, text in enumerate(texts, 1):  # noqa: B007 - `number` counts the texts after the loop
        words = words_of(tokenizer, text)
        counts.update(words)
        if words:
            ends[words[-1]] = ends.get(words[-1], 0) + 1
    return WordCounts(dict(counts), ends, texts=number)


def count_words(tokenizer: Pipeline, texts: Iterable[str], *, show_progress: bool = True,
                total: int | None = None, workers: int = 1) -> dict[str, int]:
    """Count the words of every text once, in order of first appearance (streamed)."""
    return count_words_and_ends(tokenizer, texts, show_progress=show_progress, total=total, workers=workers)[0]


def count_words_and_ends(tokenizer: Pipeline, texts: Iterable[str], *, show_progress: bool = True,
                         total: int | None = None, workers: int = 1) -> tuple[dict[str, int], dict[str, int]]:
    """count_words, and how often each word was the last of its text (the Unigram trainer's seed
    tells the end of a sentence from the next word, as sentencepiece's does)."""
    with progress_bar(show_progress, total, "Count words", unit="lines") as bar:
        counts = added_up(progressed(chunk_counts(tokenizer, iter(texts), workers), bar, ReadMeter()))
    return counts.counts, counts.ends


def added_up(parts: Iterable[WordCounts], max_words: int | None = None) -> WordCounts:
    """The sum of counts in order; with `max_words`, pruned to that many words whenever they
    reach twice as many, and at the end (see WordCounts.prune)."""
    total = WordCounts()
    for part in parts:
        total.add(part)
        if max_words is not None and len(total) >= 2 * max_words:
            total.prune(max_words)
    if max_words is not None:
        total.prune(max_words)
    return total


def progressed(parts: Iterable[WordCounts], bar: Any, meter: ReadMeter) -> Iterator[WordCounts]:
    """The parts, moving the progress bar by their texts and showing the MB read and their rate."""
    for part in parts:
        bar.update(part.texts + part.left_out)
        elapsed = bar.format_dict.get("elapsed") or 0
        if meter.bytes and elapsed:
            bar.set_postfix_str(f"{meter.bytes / 1e6:.1f} MB, {meter.bytes / 1e6 / elapsed:.2f} MB/s", refresh=False)
        yield part


def count_corpus(tokenizer: Pipeline, source: Any, *, text_column: str | None = None,
                 max_sentence_length: int | None = None, max_words: int | None = None, workers: int = 1,
                 client: Any = None, show_progress: bool = True, total: int | None = None,
                 sample: "Sample | None" = None) -> WordCounts:
    """The word counts of a training source (see sources.py), in one process, in `workers`
    processes, or on a Dask cluster (`client`); texts longer than `max_sentence_length` UTF-8
    bytes are left out and counted in `left_out`; with `sample`, only the texts it selects are
    counted (read here, then counted as asked). The caller sets the result's `pipeline`."""
    meter = ReadMeter()
    files = source_files(source) if client is not None and sample is None else None
    with progress_bar(show_progress, total, "Count words", unit="lines") as bar:
        if files is not None:
            parts = _metered(files, _counted_files(client, tokenizer, files, text_column, max_sentence_length, max_words), meter)
            return added_up(progressed(parts, bar, meter), max_words)
        short = ShortTexts(iter_texts(source, text_column, meter), max_sentence_length)
        texts = iter(short) if sample is None else sample.selected(short)
        counts = added_up(progressed(chunk_counts(tokenizer, texts, workers, client), bar, meter), max_words)
    counts.left_out += short.left_out
    return counts


def count_file(tokenizer: Pipeline, path: str, text_column: str | None, max_sentence_length: int | None,
               max_words: int | None) -> WordCounts:
    """The word counts of one file (a Dask task: the worker reads the file itself)."""
    return count_corpus(tokenizer, path, text_column=text_column, max_sentence_length=max_sentence_length,
                        max_words=max_words, show_progress=False)


def _metered(files: list[Path], parts: Iterable[WordCounts], meter: ReadMeter) -> Iterator[WordCounts]:
    """The counts of each file, adding its size to `meter` as it arrives."""
    for path, part in zip(files, parts):
        meter.bytes += path.stat().st_size
        yield part


def _counted_files(client: Any, tokenizer: Pipeline, files: list[Path], text_column: str | None,
                   max_sentence_length: int | None, max_words: int | None) -> Iterator[WordCounts]:
    """count_file of each file on the cluster, in order (the tokenizer sent to every worker once)."""
    shared = _shared(client, tokenizer)
    tasks = (client.submit(count_file, shared, str(path), text_column, max_sentence_length, max_words, pure=False)
             for path in files)
    return in_order(tasks, _cluster_window(client))


def _cluster_window(client: Any) -> int:
    """How many tasks to keep submitted ahead: two per worker thread of the cluster."""
    return 2 * max(1, sum(client.nthreads().values()))


def chunk_counts(tokenizer: Pipeline, texts: Iterator[str], workers: int = 1, client: Any = None) -> Iterator[WordCounts]:
    """count_chunk of successive chunks of lines, in input order (in worker processes or on a
    Dask cluster if asked)."""
    if client is not None:
        chunks = iter(lambda: list(islice(texts, CLUSTER_CHUNK_LINES)), [])
        return _counted_on_cluster(client, tokenizer, chunks)
    chunks = iter(lambda: list(islice(texts, CHUNK_LINES)), [])
    if workers <= 1:
        return (count_chunk(tokenizer, chunk) for chunk in chunks)
    return _counted_in_processes(tokenizer, chunks, workers)


def _counted_on_cluster(client: Any, tokenizer: Pipeline, chunks: Iterator[list[str]]) -> Iterator[WordCounts]:
    """count_chunk of each chunk on a Dask cluster, in input order."""
    shared = _shared(client, tokenizer)
    tasks = (client.submit(count_chunk, shared, chunk, pure=False) for chunk in chunks)
    return in_order(tasks, _cluster_window(client))


def _shared(client: Any, tokenizer: Pipeline) -> Any:
    """The tokenizer sent to every worker of the cluster, under a key of its own: a key named by
    the tokenizer's content (scatter's default) is the same for the next count with an equal
    tokenizer, and the scheduler could then drop it while replicating it again ("lost
    dependencies")."""
    return client.scatter(tokenizer, broadcast=True, hash=False)


def _counted_in_processes(tokenizer: Pipeline, chunks: Iterator[list[str]], workers: int) -> Iterator[WordCounts]:
    """count_chunk of each chunk in a pool of worker processes, in input order."""
    with ProcessPoolExecutor(workers, initializer=_set_worker_tokenizer, initargs=(tokenizer,)) as pool:
        yield from in_order((pool.submit(_count_in_worker, chunk) for chunk in chunks), 2 * workers)


def in_order(futures: Iterable[Any], window: int) -> Iterator[Any]:
    """The results of futures (concurrent.futures' or Dask's) in the order they were made, with at
    most `window` made ahead; an error or Ctrl-C cancels those still pending."""
    pending: deque[Any] = deque()
    try:
        for future in futures:
            pending.append(future)
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BaseException:
        for future in pending:
            future.cancel()
        raise


class ShortTexts:
    """The texts of at most `limit` UTF-8 bytes (a line's "\\n" not counted), as sentencepiece's
    trainer skips longer lines (its max_sentence_length, 4192 by default); counts both kinds.
    A `limit` of None keeps every text."""

    def __init__(self, texts: Iterable[str], limit: int | None):
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise ValueError(f"max_sentence_length must be a positive number of UTF-8 bytes or None, not {limit!r}")
        self.texts = texts
        self.limit = limit
        self.kept = self.left_out = 0

    def __iter__(self) -> Iterator[str]:
        """The short texts, in order."""
        limit = self.limit
        if limit is None:
            yield from self.texts
            return
        for text in self.texts:
            line = text[:-1] if text.endswith("\n") else text
            if len(line) <= limit // 4 or (len(line) <= limit and len(line.encode("utf-8", "surrogatepass")) <= limit):
                self.kept += 1
                yield text
            else:
                self.left_out += 1


@dataclass(frozen=True)
class Sample:
    """sentencepiece's `input_sentence_size` and `shuffle_input_sentence`: train on at most `size`
    of the non-empty texts, the first ones (`shuffle` False) or drawn uniformly from all of them
    (`shuffle` True; `seed` makes the draw repeatable)."""

    size: int
    shuffle: bool = True
    seed: int = 0

    def __post_init__(self) -> None:
        """Refuse a size that is not a positive int."""
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 1:
            raise ValueError(f"input_sentence_size must be a positive number of texts, or 0 for all, not {self.size!r}")

    def selected(self, texts: Iterable[str]) -> Iterator[str]:
        """The texts this sample keeps, as sentencepiece keeps them: empty texts skipped, then the
        first `size` (reading stops there), or a reservoir sample of `size` in the reservoir's
        order (each new text takes a random slot with chance size / texts seen)."""
        non_empty = (text for text in texts if text and text != "\n")
        if not self.shuffle:
            yield from islice(non_empty, self.size)
            return
        draw = random.Random(self.seed).randrange
        kept: list[str] = []
        for seen, text in enumerate(non_empty):
            if seen < self.size:
                kept.append(text)
                continue
            slot = draw(seen + 1)
            if slot < self.size:
                kept[slot] = text
        yield from kept

    def describe(self) -> dict[str, Any]:
        """Its part of the counts' pipeline description (counts of a sample are not the text's)."""
        return {"input_sentence_size": self.size, "shuffle_input_sentence": self.shuffle, "seed": self.seed}


_WORKER_TOKENIZER: Any = None


def _set_worker_tokenizer(tokenizer: Pipeline) -> None:
    """Keep the tokenizer in a worker process (sent once, not per chunk).

    Workers ignore Ctrl-C: the parent stops them, so one interrupt gives one clean stop.
    """
    global _WORKER_TOKENIZER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_TOKENIZER = tokenizer


def _count_in_worker(chunk: list[str]) -> WordCounts:
    """count_chunk in a worker process."""
    return count_chunk(_WORKER_TOKENIZER, chunk)
