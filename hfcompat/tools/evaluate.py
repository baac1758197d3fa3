"""Measure and compare tokenizers on plain text: compression, fertility, unknowns, per script, speed.

Definitions (per tokenizer, over all texts; `hfcompat.tools.scripts` defines the classes and words):

- each text is encoded whole (no truncation or padding), without special tokens, and with
  strings that look like special tokens treated as ordinary text (`encode_special_tokens`);
- `tokens`, `chars`, `bytes` (UTF-8) are totals; `tokens_per_char` = tokens / chars,
  `bytes_per_token` = bytes / tokens;
- a *word* is a maximal run of characters of one class (spaces and punctuation separate words);
  `fertility` = tokens / words, `split_share` = share of words overlapped by more than one token;
- `unk_rate` = share of tokens whose id is the model's unknown id; `byte_fallback_rate` = share
  of `<0xHH>` tokens of a byte-fallback model; `vocab_used` = distinct ids seen / vocabulary size;
- per script: a token counts 1/k for each of the k non-neutral characters it covers (so a token
  " hello" is all Latin); a token covering only spaces and punctuation counts for `space_punct`.
  Tokens sharing one span (byte fallback) each count fully, so per-script tokens add up to `tokens`;
- `mb_per_s`: UTF-8 megabytes encoded per second (first, cold pass); `peak_mb`: the peak of
  Python memory allocated while encoding the texts again with empty caches (tracemalloc).
"""

from __future__ import annotations

import time
import tracemalloc
from collections import Counter
from typing import Any, Iterable, Mapping, Sequence

import regex

from .evaluate_report import Evaluation, Report
from .scripts import NEUTRAL, char_classes, words

BYTE_TOKEN = regex.compile(r"<0x[0-9A-F]{2}>")


def evaluate(tokenizers: Mapping[str, Any] | Sequence[Any], texts: Iterable[str], *,
             measure_memory: bool = True, progress: bool = False) -> Evaluation:
    """Evaluate each tokenizer on the same texts (a mapping gives the names).

    `progress` shows a tqdm bar per tokenizer on stderr (when stderr is a terminal).
    """
    texts = [text for text in texts if text]
    named = (list(tokenizers.items()) if isinstance(tokenizers, Mapping)
             else [(f"tokenizer{i + 1}", tok) for i, tok in enumerate(tokenizers)])
    classified = [(text, char_classes(text)) for text in texts]
    return Evaluation([_evaluate_one(name, tok, classified, measure_memory, progress) for name, tok in named])


def _evaluate_one(name: str, tokenizer: Any, texts: list[tuple[str, list[str]]],
                  measure_memory: bool, progress: bool = False) -> Report:
    """Encode every text with one tokenizer and accumulate its report."""
    from tqdm import tqdm  # imported here: `import hfcompat` stays light
    report = Report(name, tokenizer.get_vocab_size(with_added_tokens=True))
    unk_id = unknown_id(tokenizer.model)
    byte_fallback = bool(getattr(tokenizer.model, "byte_fallback", False))
    saved = tokenizer.encode_special_tokens, tokenizer.truncation, tokenizer.padding
    tokenizer.encode_special_tokens, tokenizer.truncation, tokenizer.padding = True, None, None
    try:
        tokenizer.clear_cache()  # a cold pass
        start = time.perf_counter()
        shown = tqdm(texts, desc=name, unit=" texts", disable=None if progress else True, leave=False)
        encodings = [tokenizer.encode(text, add_special_tokens=False) for text, _ in shown]
        report.seconds = time.perf_counter() - start
        if measure_memory:
            report.peak_bytes = _peak_memory(tokenizer, [text for text, _ in texts])
    finally:
        tokenizer.encode_special_tokens, tokenizer.truncation, tokenizer.padding = saved
    for (text, classes), encoding in zip(texts, encodings):
        report.texts += 1
        _add_text(report, text, classes, encoding)
        report.unk += sum(1 for token_id in encoding.ids if token_id == unk_id)
        if byte_fallback:
            report.byte_fallback += sum(1 for token in encoding.tokens if BYTE_TOKEN.fullmatch(token))
    return report


def unknown_id(model: Any) -> int | None:
    """The model's unknown-token id (Unigram's unk_id, or the id of unk_token), or None."""
    if getattr(model, "unk_id", None) is not None:
        return model.unk_id
    unk_token = getattr(model, "unk_token", None)
    return None if unk_token is None else model.token_to_id(unk_token)


def _peak_memory(tokenizer: Any, texts: list[str]) -> int:
    """Peak bytes Python allocates while encoding `texts` from empty caches (results kept)."""
    tokenizer.clear_cache()  # a cold pass
    tracemalloc.start()
    try:
        kept = [tokenizer.encode(text, add_special_tokens=False) for text in texts]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del kept
    return peak


def _add_text(report: Report, text: str, classes: list[str], encoding: Any) -> None:
    """Add one text's characters, words and tokens to the overall and per-script counts."""
    total, by_script = report.total, report.by_script
    total.chars += len(text)
    for char, name in zip(text, classes):
        width = len(char.encode("utf-8", "surrogatepass"))
        total.bytes += width
        counts = by_script[name]
        counts.chars += 1
        counts.bytes += width
    runs = words(classes)
    word_of = [-1] * len(text)
    for index, (start, end, _) in enumerate(runs):
        word_of[start:end] = [index] * (end - start)
    overlaps: Counter[int] = Counter()
    for token_id, (start, end) in zip(encoding.ids, encoding.offsets):
        total.tokens += 1
        total.ids.add(token_id)
        for name, share in token_shares(classes, start, end).items():
            by_script[name].tokens += share
            by_script[name].ids.add(token_id)
        overlaps.update({word_of[i] for i in range(start, min(end, len(text)))} - {-1})
    total.words += len(runs)
    for index, (_, _, name) in enumerate(runs):
        split = overlaps[index] > 1
        by_script[name].words += 1
        by_script[name].split_words += split
        total.split_words += split


def token_shares(classes: list[str], start: int, end: int) -> dict[str, float]:
    """How one token spanning chars [start, end) divides among classes (the shares sum to 1)."""
    covered = [name for name in classes[start:end] if name != NEUTRAL]
    if not covered:
        if start >= end and start < len(classes) and classes[start] != NEUTRAL:
            return {classes[start]: 1.0}
        return {NEUTRAL: 1.0}
    return {name: count / len(covered) for name, count in Counter(covered).items()}
