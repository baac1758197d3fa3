"""`SentencePieceNormalizer`: sentencepiece's normalizer on its own, from a model, a spec, a named
rule set, a TSV of rules or a map, with the whitespace flags of the spec unless given."""

from __future__ import annotations

from typing import Any

from ...formats.sentencepiece import schema
from ...normalizers.charsmap_builder import build_charsmap
from ...normalizers.normalization_rules import named_rules, precompiled_charsmap
from .engine import spec_normalizer
from .processor import normalized

FLAGS = ("add_dummy_prefix", "escape_whitespaces", "remove_extra_whitespaces")


class SentencePieceNormalizer:
    """Normalize texts as a NormalizerSpec says."""

    def __init__(self, model_file: Any = None, model_proto: Any = None, normalizer_spec: Any = None,
                 rule_tsv: Any = None, rule_name: str | None = None, norm_map: Any = None,
                 add_dummy_prefix: bool | None = None, escape_whitespaces: bool | None = None,
                 remove_extra_whitespaces: bool | None = None):
        self._model = schema.ModelProto()
        self._rules: dict[str, str] = {}
        if model_file:
            with open(model_file, "rb") as file:
                self._model.ParseFromString(file.read())
        elif model_proto:
            self._model.ParseFromString(_serialized(model_proto))
        elif normalizer_spec:
            self._model.normalizer_spec.ParseFromString(_serialized(normalizer_spec))
        elif rule_tsv:
            self._set_rules("user_defined", _tsv_rules(rule_tsv))
        elif rule_name:
            self._set_named(rule_name)
        elif norm_map:
            self._set_rules("user_defined", _map_rules(norm_map))
        else:
            raise ValueError("no model is specified")
        for name, value in zip(FLAGS, (add_dummy_prefix, escape_whitespaces, remove_extra_whitespaces)):
            if value is not None:
                setattr(self._model.normalizer_spec, name, bool(value))
        self._build()

    def _set_named(self, name: str) -> None:
        """A named rule set (identity: none)."""
        spec = self._model.normalizer_spec
        spec.name = name
        if name != "identity":
            spec.precompiled_charsmap = precompiled_charsmap(name)
            self._rules = dict(named_rules(name))

    def _set_rules(self, name: str, rules: dict[str, str]) -> None:
        """Rules of one's own, compiled into a charsmap."""
        spec = self._model.normalizer_spec
        spec.name = name
        spec.precompiled_charsmap = build_charsmap(rules)
        self._rules = rules

    def _build(self) -> None:
        """The normalizer of the spec as it now is."""
        self._normalizer = spec_normalizer(self._model.normalizer_spec,
                                           self._model.trainer_spec.treat_whitespace_as_suffix)

    def Decompile(self) -> list[tuple[str, str]]:
        """The rules as (source, target), sorted by source."""
        return sorted(self._rules.items())

    def serialized_model_proto(self) -> bytes:
        """A ModelProto holding this normalizer."""
        return self._model.SerializeToString()

    def serialized_normalizer_spec(self) -> bytes:
        """The NormalizerSpec, serialized."""
        return self._model.normalizer_spec.SerializeToString()

    def Normalize(self, input: Any, with_offsets: bool | None = None) -> Any:
        """A text (or each of a list) normalized, with offsets back to the input if asked."""
        if isinstance(input, list):
            return [normalized(self._normalizer, text, with_offsets) for text in input]
        return normalized(self._normalizer, input, with_offsets)

    def __getstate__(self) -> bytes:
        return self.serialized_model_proto()

    def __setstate__(self, state: bytes) -> None:
        self._model = schema.ModelProto()
        self._model.ParseFromString(state)
        self._rules = {}
        self._build()


def _serialized(message: Any) -> bytes:
    """A message or its bytes, as bytes."""
    return message.SerializeToString() if hasattr(message, "SerializeToString") else bytes(message)


def _text(value: Any, what: str) -> str:
    """A rule's side as str (ValueError for bytes that are not UTF-8)."""
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"the {what} of a rule is not UTF-8: {value!r}") from None
    return str(value)


def _map_rules(pairs: Any) -> dict[str, str]:
    """(source, target) pairs as rules: sources non-empty, not their own targets, not repeated."""
    rules: dict[str, str] = {}
    for source, target in pairs:
        source, target = _text(source, "source"), _text(target, "target")
        if not source:
            raise ValueError("a rule's source is empty")
        if source == target:
            raise ValueError(f"the rule for {source!r} maps it to itself")
        if source in rules:
            raise ValueError(f"{source!r} has two rules")
        rules[source] = target
    return rules


def _tsv_rules(path: Any) -> dict[str, str]:
    """Rules from a TSV of code points in hex: source, tab, target (each space-separated)."""
    pairs = []
    with open(path, encoding="utf-8") as file:
        for line in file:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 2 or line.startswith("#"):
                continue
            pairs.append(tuple("".join(chr(int(code, 16)) for code in field.split()) for field in fields[:2]))
    return _map_rules(pairs)


__all__ = ["SentencePieceNormalizer"]
