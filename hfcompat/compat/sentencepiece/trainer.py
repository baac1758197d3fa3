"""`SentencePieceTrainer.train`: sentencepiece's training options mapped onto hfcompat's trainers.

The pieces are learned by `hfcompat.train` (model="unigram" or "sentencepiece_bpe", on the texts
normalized as sentencepiece normalizes them) and laid out as sentencepiece lays out a model:
unk, bos, eos (and pad) at their ids, then control and user-defined symbols, then the learned
pieces, vocab_size in all.
"""

from __future__ import annotations

import csv
import io
import shlex
from typing import Any, Iterable

from ...files import atomic_write_bytes
from ...formats.sentencepiece import schema
from ...normalizers.normalization_rules import precompiled_charsmap
from ...tools import train
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
    if model_type not in MODEL_NAMES:
        raise ValueError(f"model_type={model_type}: hfcompat trains unigram and bpe models only")
    vocab_size = int(options.get("vocab_size", 8000))
    proto = schema.ModelProto()
    proto.normalizer_spec.CopyFrom(_normalizer_spec(options))
    trainer = proto.trainer_spec
    trainer.model_type = schema.MODEL_TYPES[model_type.upper()]
    trainer.vocab_size = vocab_size
    reserved = _reserved(options, trainer)
    normalizer = spec_normalizer(proto.normalizer_spec, False)
    texts = [_pretokenized(normalizer.normalize(line), options) for line in _sentences(options)]
    learned = _learned(texts, MODEL_NAMES[model_type], vocab_size - len(reserved) + 1)
    taken = {piece for piece, _, _ in reserved}
    pieces = reserved + [(p.piece, p.score, p.type) for p in learned if p.piece not in taken
                         and p.type == schema.NORMAL]
    for piece, score, kind in pieces[:vocab_size]:
        proto.pieces.add(piece=piece, score=score, type=kind)
    return proto


def _pretokenized(text: str, options: dict[str, Any]) -> str:
    """The normalized text, cut by the caller's pre-tokenizer (its pieces apart, as words)."""
    pretokenizer = options.get("pretokenizer")
    if pretokenizer is None:
        return text
    parts = pretokenizer(text)
    if "".join(parts) != text and not options.get("allow_inconsistent_pretokenization"):
        raise ValueError("the pretokenizer's pieces do not join up to the text they were cut from")
    return " ".join(parts)


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


def _learned(texts: list[str], model: str, vocab_size: int) -> list[Any]:
    """The pieces hfcompat's trainer learns on the normalized texts (spaces as "▁")."""
    words = [text.replace("\u2581", " ") for text in texts]
    tokenizer = train(words, model=model, vocab_size=max(vocab_size, 2), show_progress=False)
    return list(tokenizer.sentencepiece_source.proto.pieces)


__all__ = ["SentencePieceTrainer"]
