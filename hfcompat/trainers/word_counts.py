"""WordCounts: the pre-tokenized words of a corpus, counted, with what they were counted with.

A trainer needs only these counts (and, for Unigram, how often each word ended a text), so a
corpus can be counted once, in parts, on many machines, and the parts added: `a + b` keeps the
words of `a` in their first-seen order, then the words new in `b` in theirs, so the counts of two
halves of a text added in order equal the counts of the whole, order included (BPE's tie rules
depend on it). Counts of different pipelines are never added or trained from: `pipeline` says
what counted them (see `describe_pipeline`), and a mismatch is a PipelineMismatch naming both.

File format (`save` / `load`), JSON lines in UTF-8 (gzip-compressed when the name ends in .gz):
the first line is the header object

    {"format": "hfcompat-word-counts", "version": 1, "pipeline": {...}, "texts": 120,
     "left_out": 0, "dropped": 0, "words": 3}

and each further line one word in first-seen order, `[word, count]` or `[word, count, ends]`
where `ends` (> 0) is how often the word was the last of a text. `words` is the number of word
lines (a file cut short is refused), `texts` the texts counted, `left_out` the texts skipped as
too long (max_sentence_length), `dropped` the occurrences of words that `max_words` pruning left
out (0 means the counts are exact).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterator

from ..errors import FormatError, PipelineMismatch
from ..files import atomic_target

FORMAT = "hfcompat-word-counts"
VERSION = 1
LONG_STRING = 256  # longer strings in a pipeline's description (charsmaps) are kept as their digest
HEADER_COUNTS = ("texts", "left_out", "dropped", "words")


@dataclass(eq=False)
class WordCounts:
    """Word counts in first-seen order, sentence ends, and the description of the counting pipeline."""

    counts: dict[str, int] = field(default_factory=dict)
    ends: dict[str, int] = field(default_factory=dict)  # how often each word was the last of a text
    pipeline: dict[str, Any] = field(default_factory=dict)  # see describe_pipeline
    texts: int = 0  # texts counted
    left_out: int = 0  # texts skipped as longer than max_sentence_length
    dropped: int = 0  # occurrences of the words max_words pruning dropped (0: exact counts)

    def __len__(self) -> int:
        """The number of distinct words."""
        return len(self.counts)

    def __eq__(self, other: object) -> bool:
        """Equal counts in the same first-seen order, from the same pipeline."""
        if not isinstance(other, WordCounts):
            return NotImplemented
        return (self.pipeline == other.pipeline and list(self.counts.items()) == list(other.counts.items())
                and self.ends == other.ends
                and (self.texts, self.left_out, self.dropped) == (other.texts, other.left_out, other.dropped))

    def __add__(self, other: "WordCounts") -> "WordCounts":
        """The counts of both corpora: this one's words first, then those new in `other`."""
        if not isinstance(other, WordCounts):
            return NotImplemented
        total = WordCounts(dict(self.counts), dict(self.ends), self.pipeline, self.texts, self.left_out, self.dropped)
        total.add(other)
        return total

    def __radd__(self, other: Any) -> "WordCounts":
        """0 + counts (so that sum(parts) works)."""
        if isinstance(other, int) and other == 0:
            return self + WordCounts(pipeline=self.pipeline)
        return NotImplemented

    def add(self, other: "WordCounts") -> None:
        """Add `other`'s counts in place (its new words after this one's)."""
        if other.pipeline and self.pipeline and other.pipeline != self.pipeline:
            raise PipelineMismatch(f"cannot add word counts of different pipelines: {pipeline_difference(self.pipeline, other.pipeline)}")
        self.pipeline = self.pipeline or other.pipeline
        merge_counts(self.counts, other.counts)
        merge_counts(self.ends, other.ends)
        self.texts += other.texts
        self.left_out += other.left_out
        self.dropped += other.dropped

    def total(self) -> int:
        """How many words were counted (occurrences)."""
        return sum(self.counts.values())

    def prune(self, max_words: int) -> None:
        """Keep only the `max_words` most frequent words (ties: the first seen), in their order.

        An approximation: the dropped occurrences are counted in `dropped`, and a word dropped
        here may have become frequent later.
        """
        if len(self.counts) <= max_words:
            return
        ranked = sorted(self.counts.items(), key=lambda item: -item[1])  # stable: ties stay in first-seen order
        kept = {word for word, _ in ranked[:max_words]}
        self.dropped += sum(count for _, count in ranked[max_words:])
        self.counts = {word: count for word, count in self.counts.items() if word in kept}
        self.ends = {word: count for word, count in self.ends.items() if word in kept}

    def check_pipeline(self, expected: dict[str, Any], user: str) -> None:
        """Raise PipelineMismatch unless these counts were counted with the pipeline `user` counts with."""
        if self.pipeline != expected:
            raise PipelineMismatch(f"these word counts cannot be used by {user}: "
                             f"{pipeline_difference(self.pipeline, expected)}")

    # ----- files ------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the counts as JSON lines (see the module's docstring), atomically; gzip for *.gz."""
        path = Path(path)
        with atomic_target(path) as target, _open_for_writing(target, path) as handle:
            handle.write(_json_line(self.header()))
            for word, count in self.counts.items():
                last = self.ends.get(word, 0)
                handle.write(_json_line([word, count, last] if last else [word, count]))

    def header(self) -> dict[str, Any]:
        """The first line of the file."""
        return {"format": FORMAT, "version": VERSION, "pipeline": self.pipeline, "texts": self.texts,
                "left_out": self.left_out, "dropped": self.dropped, "words": len(self.counts)}

    @classmethod
    def load(cls, path: str | Path) -> "WordCounts":
        """Read counts written by `save`; a malformed file is a FormatError naming it and the line."""
        path = Path(path)
        try:
            with _open_for_reading(path) as handle:
                return _read_counts(handle, str(path))
        except OSError as error:
            raise FormatError(f"cannot read: {error.strerror or error}", path=str(path)) from None
        except EOFError as error:
            raise FormatError(f"cannot read: {error}", path=str(path)) from None


def merge_counts(into: dict[str, int], more: dict[str, int]) -> None:
    """Add `more` to `into`, new keys after the present ones in `more`'s order."""
    get = into.get
    for word, count in more.items():
        into[word] = get(word, 0) + count


def pipeline_difference(ours: dict[str, Any], theirs: dict[str, Any]) -> str:
    """Both pipeline descriptions and the keys in which they differ, for error messages."""
    keys = sorted(key for key in set(ours) | set(theirs) if ours.get(key) != theirs.get(key))
    return (f"they were counted with {_summary(ours)}, but {_summary(theirs)} is needed "
            f"(they differ in {', '.join(keys)})")


def _summary(description: dict[str, Any]) -> str:
    """A description as compact JSON."""
    return json.dumps(description, ensure_ascii=False, separators=(",", ":"))


def describe_pipeline(tokenizer: Any, *, model: str | None = None, max_sentence_length: int | None = None,
                      sample: dict[str, Any] | None = None) -> dict[str, Any]:
    """What decides the words a tokenizer's pipeline counts: its normalizer and pre-tokenizer (as
    tokenizer.json writes them, strings longer than 256 chars as their sha256), the added tokens
    split out before them, the longest text counted (None: all), the model name it is for, and
    the sample of the texts counted (only when one was drawn, so earlier files still match)."""
    def dump(component: Any) -> Any:
        return None if component is None else _digested(component.to_dict())

    added = [{key: value for key, value in token.items() if key != "id"}
             for token in tokenizer.added_vocabulary.to_list()]
    described = {"model": model, "normalizer": dump(tokenizer.normalizer), "pre_tokenizer": dump(tokenizer.pre_tokenizer),
                 "added_tokens": added, "max_sentence_length": max_sentence_length}
    if sample is not None:
        described["sample"] = sample
    return described


def _digested(value: Any) -> Any:
    """A JSON value with each long string replaced by "sha256:<hex digest>"."""
    if isinstance(value, str) and len(value) > LONG_STRING:
        return "sha256:" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
    if isinstance(value, dict):
        return {key: _digested(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_digested(item) for item in value]
    return value


# --------------------------------------------------------------------------- reading and writing


def _json_line(value: Any) -> str:
    """One JSON value on one line: non-ASCII kept as it is, unless it holds a lone surrogate
    (not UTF-8), which the line then escapes as JSON can."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, separators=(",", ":"))
    return text + "\n"


def _open_for_writing(target: Path, path: Path) -> IO[str]:
    """The temp file `target` opened for UTF-8 text, compressed when `path` ends in .gz."""
    if path.suffix.lower() == ".gz":
        return io.TextIOWrapper(gzip.open(target, "wb"), encoding="utf-8", newline="\n")
    return open(target, "w", encoding="utf-8", newline="\n")


def _open_for_reading(path: Path) -> IO[str]:
    """A counts file opened for UTF-8 text, decompressed when it ends in .gz."""
    raw = gzip.open(path, "rb") if path.suffix.lower() == ".gz" else open(path, "rb")
    return io.TextIOWrapper(raw, encoding="utf-8", errors="strict", newline="\n")


def _read_counts(handle: IO[str], name: str) -> WordCounts:
    """WordCounts from an open counts file."""
    lines = _numbered_json(handle, name)
    first = next(lines, None)
    if first is None:
        raise FormatError(f"the file is empty; expected a {FORMAT} header line", path=name)
    header = _checked_header(first[1], name)
    result = WordCounts(pipeline=header["pipeline"], texts=header["texts"], left_out=header["left_out"],
                        dropped=header["dropped"])
    for number, row in lines:
        word, count, last = _checked_row(row, number, name)
        if word in result.counts:
            raise FormatError(f"line {number}: the word {word!r} occurs twice", path=name)
        result.counts[word] = count
        if last:
            result.ends[word] = last
    if len(result.counts) != header["words"]:
        raise FormatError(f"the header announces {header['words']} words but the file holds "
                          f"{len(result.counts)} (cut short?)", path=name, field="words")
    return result


def _numbered_json(handle: IO[str], name: str) -> Iterator[tuple[int, Any]]:
    """(line number, JSON value) of each line."""
    number = 0
    try:
        for number, line in enumerate(handle, 1):
            yield number, json.loads(line)
    except UnicodeDecodeError as error:
        raise FormatError(f"not UTF-8 text after line {number} ({error.reason})", path=name) from None
    except json.JSONDecodeError as error:
        raise FormatError(f"line {number} is not JSON ({error.msg})", path=name) from None


def _checked_header(header: Any, name: str) -> dict[str, Any]:
    """The header line, checked."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise FormatError(f"line 1 is not a {FORMAT} header (is this a word counts file?)", path=name, field="format")
    if header.get("version") != VERSION:
        raise FormatError(f"version {header.get('version')!r} is not supported (expected {VERSION})",
                          path=name, field="version")
    if not isinstance(header.get("pipeline"), dict):
        raise FormatError("expected an object describing the counting pipeline", path=name, field="pipeline")
    for key in HEADER_COUNTS:
        if not _is_count(header.get(key)):
            raise FormatError(f"expected a count (a whole number >= 0), found {header.get(key)!r}",
                              path=name, field=key)
    return header


def _checked_row(row: Any, number: int, name: str) -> tuple[str, int, int]:
    """(word, count, ends) of one word line, checked."""
    if not isinstance(row, list) or len(row) not in (2, 3) or not isinstance(row[0], str):
        raise FormatError(f"line {number}: expected [word, count] or [word, count, ends]", path=name)
    word, count, last = row[0], row[1], row[2] if len(row) == 3 else 0
    if not _is_count(count) or count == 0 or not _is_count(last) or last > count:
        raise FormatError(f"line {number}: the counts of {word!r} must be whole numbers, count > 0 "
                          f"and 0 <= ends <= count, found {row[1:]}", path=name)
    return word, count, last


def _is_count(value: Any) -> bool:
    """A non-negative int (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
