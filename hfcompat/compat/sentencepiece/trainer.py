"""`SentencePieceTrainer.train`: sentencepiece's training options mapped onto hfcompat's trainers.

The pieces are learned by `hfcompat.train` (model="unigram" or "sentencepiece_bpe") on the words of
the texts as sentencepiece normalizes them (WORD and CHAR pieces by frequency), laid out as sentencepiece lays out a model:
unk, bos, eos (and pad) at their ids, then control and user-defined symbols, then the learned
pieces, vocab_size in all.
"""

from __future__ import annotations

import csv
import io
import math
import re
import shlex
from typing import Any, Iterable

from ...files import atomic_write_bytes
from ...formats.sentencepiece import schema
from ...formats.sentencepiece.read import sentencepiece_source
from ...normalizers.normalization_rules import precompiled_charsmap
from ...normalizers.sentencepiece_spec import SPACE
from ...tools.train import count_words, train
from ...trainers import WordCounts
from .engine import spec_normalizer

MODEL_NAMES = {"unigram": "unigram", "bpe": "sentencepiece_bpe"}
SPECIALS = ("unk", "bos", "eos", "pad")
DEFAULT_IDS = {"unk": 0, "bos": 1, "eos": 2, "pad": -1}
DEFAULT_PIECES = {"unk": "<unk>", "bos": "<s>", "eos": "</s>", "pad": "<pad>"}
FLAGS = ("add_dummy_prefix", "remove_extra_whitespaces", "escape_whitespaces")
QUIET = ("minloglevel", "num_threads", "logstream", "character_coverage", "input_sentence_size",
         "shuffle_input_sentence", "hard_vocab_limit", "max_sentence_length", "seed_sentencepiece_size")


def _options_of(arg: str) -> dict[str, str]:
    """'--name=value ...' as {name: value}."""
    options = {}
    for word in shlex.split(arg):
        name, _, value = word.lstrip("-").partition("=")
        options[name] = value
    return options


def _listed(value: Any) -> list[str]:
    """A list option: a list, or sentencepiece's comma-separated string."""
    if isinstance(value, (list, tuple)):
        return [str(item) for item in value]
    if not value:
        return []
    return next(csv.reader(io.StringIO(str(value))))


def _flag(value: Any) -> bool:
    """A boolean option given as bool or text."""
    return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes")


class SentencePieceTrainer:
    """Train a .model as sentencepiece's trainer does, with hfcompat's trainers."""

    @staticmethod
    def Train(arg: str | None = None, logstream: Any = None, **options: Any) -> None:
        """Train from an option string ('--input=... --model_prefix=...') or keyword options."""
        if isinstance(arg, str):
            options = {**_options_of(arg), **options}
        model = _trained_model(options)
        writer = options.get("model_writer")
        if writer is not None:
            writer.write(model.SerializeToString())
            return None
        prefix = options.get("model_prefix")
        if not prefix:
            raise ValueError("--model_prefix must not be empty")
        atomic_write_bytes(f"{prefix}.model", model.SerializeToString())
        vocab = "".join(f"{p.piece}\t{p.score:g}\n" for p in model.pieces)
        atomic_write_bytes(f"{prefix}.vocab", vocab.encode("utf-8"))
        return None


def _sentences(options: dict[str, Any]) -> list[str]:
    """The training texts: the input files' lines, or the sentence iterator's items."""
    iterator = options.get("sentence_iterator", options.get("sentence_reader"))
    if iterator is not None:
        items: Iterable[Any] = iterator
    else:
        items = []
        for path in _listed(options.get("input")):
            with open(path, "rb") as file:
                items = [*items, *file]
    lines = []
    for item in items:
        text = item.decode("utf-8", "replace") if isinstance(item, bytes) else str(item)
        lines.append(text.rstrip("\r\n"))
    if not lines:
        raise ValueError("--input must not be empty")
    return lines


def _normalizer_spec(options: dict[str, Any]) -> Any:
    """The NormalizerSpec: a given normalizer's, or the named rule with the flags given."""
    spec = schema.NormalizerSpec()
    given = options.get("normalizer")
    if given is not None:
        spec.ParseFromString(given.serialized_normalizer_spec())
        clash = [flag for flag in FLAGS if flag in options]
        if clash:
            raise ValueError(f"normalizer= already sets {', '.join(clash)}: do not pass them too")
        return spec
    name = str(options.get("normalization_rule_name", "nmt_nfkc"))
    spec.name = name
    if name != "identity":
        spec.precompiled_charsmap = precompiled_charsmap(name)
    for flag in FLAGS:
        if flag in options:
            setattr(spec, flag, _flag(options[flag]))
    return spec


def _trained_model(options: dict[str, Any]) -> Any:
    """The ModelProto the options ask for."""
    if options.get("pretokenizer") is not None and options.get("pretokenization_delimiter"):
        raise ValueError("pretokenizer and pretokenization_delimiter are mutually exclusive")
    model_type = str(options.get("model_type", "unigram")).lower()
    if model_type.upper() not in schema.MODEL_TYPES:
        raise ValueError(f"unknown model_type={model_type}")
    vocab_size = int(options.get("vocab_size", 8000))
    proto = schema.ModelProto()
    proto.normalizer_spec.CopyFrom(_normalizer_spec(options))
    trainer = proto.trainer_spec
    trainer.model_type = schema.MODEL_TYPES[model_type.upper()]
    trainer.vocab_size = vocab_size
    trainer.hard_vocab_limit = _flag(options.get("hard_vocab_limit", True))
    reserved = _reserved(options, trainer)
    normalizer = spec_normalizer(proto.normalizer_spec, False)
    counts = _word_counts((normalizer.normalize(line) for line in _sentences(options)), options)
    wanted = vocab_size - len(reserved)
    if model_type in MODEL_NAMES:
        learned = _learned(counts, MODEL_NAMES[model_type], wanted + len(reserved) + 1)  # some may be reserved
    else:
        learned = _by_frequency(counts, model_type == "char")
    taken = {piece for piece, _, _ in reserved}
    pieces = reserved + [entry for entry in learned if entry[0] not in taken]
    if len(pieces) < vocab_size and trainer.hard_vocab_limit and model_type != "char":
        raise RuntimeError(f"Vocabulary size too high ({vocab_size}): only {len(pieces)} pieces were found. "
                           "Please set it to a value <= that, or hard_vocab_limit=false.")
    for piece, score, kind in pieces[:vocab_size]:
        proto.pieces.add(piece=piece, score=score, type=kind)
    return proto


def _word_counts(texts: Iterable[str], options: dict[str, Any]) -> WordCounts:
    """The words of the normalized texts (cut before each "▁", or by the caller's pre-tokenizer),
    how often each occurs and how often it ends a text."""
    counts: dict[str, int] = {}
    ends: dict[str, int] = {}
    number = 0
    for text in texts:
        words = _words(text, options)
        number += 1
        for word in words:
            counts[word] = counts.get(word, 0) + 1
        if words:
            ends[words[-1]] = ends.get(words[-1], 0) + 1
    return WordCounts(counts, ends, texts=number)


def _words(text: str, options: dict[str, Any]) -> list[str]:
    """One normalized text's words: the pre-tokenizer's pieces, else cut before each "▁"."""
    pretokenizer = options.get("pretokenizer")
    if pretokenizer is None:
        return [word for word in re.split(f"(?={SPACE})", text) if word]
    try:
        parts = [str(part) for part in pretokenizer(text)]
    except Exception as error:
        raise RuntimeError(f"the pretokenizer failed: {error}") from error
    if "".join(parts) != text and not options.get("allow_inconsistent_pretokenization"):
        raise ValueError("the pretokenizer's pieces do not join up to the text they were cut from "
                         "(allow_inconsistent_pretokenization=True accepts that)")
    return [part for part in parts if part]


def _reserved(options: dict[str, Any], trainer: Any) -> list[tuple[str, float, int]]:
    """The special pieces at their ids, then control and user-defined symbols."""
    by_id: dict[int, tuple[str, float, int]] = {}
    user_defined = _listed(options.get("user_defined_symbols"))
    for name in SPECIALS:
        token_id = int(options.get(f"{name}_id", DEFAULT_IDS[name]))
        piece = str(options.get(f"{name}_piece", DEFAULT_PIECES[name]))
        setattr(trainer, f"{name}_id", token_id)
        setattr(trainer, f"{name}_piece", piece)
        if token_id >= 0 and piece not in user_defined:
            by_id[token_id] = (piece, 0.0, schema.UNKNOWN if name == "unk" else schema.CONTROL)
    listed = [(piece, 0.0, schema.CONTROL) for piece in _listed(options.get("control_symbols"))]
    listed += [(piece, 0.0, schema.USER_DEFINED) for piece in user_defined]
    ordered = [by_id[i] for i in sorted(by_id)]
    return ordered + [entry for entry in listed if entry[0] not in {p for p, _, _ in ordered}]


def _learned(counts: WordCounts, model: str, vocab_size: int) -> list[tuple[str, float, int]]:
    """The normal pieces hfcompat's trainer learns on these words."""
    counts.pipeline = count_words([""], model=model, show_progress=False).pipeline
    tokenizer = train(counts, model=model, vocab_size=max(vocab_size, 2), show_progress=False)
    return [(p.piece, p.score, p.type) for p in sentencepiece_source(tokenizer).proto.pieces
            if p.type == schema.NORMAL]


def _by_frequency(counts: WordCounts, chars: bool) -> list[tuple[str, float, int]]:
    """A WORD (or CHAR) model's pieces: words (chars), most frequent first, scored by log frequency."""
    found: dict[str, int] = {}
    for word, count in counts.counts.items():
        for unit in (word if chars else [word]):
            found[unit] = found.get(unit, 0) + count
    total = sum(found.values()) or 1
    ordered = sorted(found.items(), key=lambda item: -item[1])
    return [(unit, math.log(count / total), schema.NORMAL) for unit, count in ordered]


__all__ = ["SentencePieceTrainer"]
