"""What the lint checks share: the Finding type, its sample sizes, and how they read a pipeline."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from ...errors import UnsupportedConversion
from ...tokenizer import Tokenizer

SEVERITIES = ("error", "warning", "info")
SAMPLE = 10  # tokens or ids shown per finding
DETAILS = 5  # details shown per finding
# Bytes that occur in UTF-8 text; C0, C1 and F5..FF never do.
UTF8_BYTES = frozenset(range(0xC0)) | frozenset(range(0xC2, 0xF5))


@dataclass
class Finding:
    """One problem: a stable code, its severity, what was found and why it matters."""

    code: str
    severity: str  # "error", "warning" or "info"
    message: str  # what was found, one sentence
    why: str  # why it matters, one sentence
    count: int = 0  # how many tokens, ids or cases
    tokens: list[str] = field(default_factory=list)  # a sample
    ids: list[int] = field(default_factory=list)  # the ids of the sample tokens
    details: list[str] = field(default_factory=list)  # patterns, probes, reasons (a sample)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for --json)."""
        return asdict(self)

    def __str__(self) -> str:
        lines = [f"{self.severity}: {self.code}: {self.message}", f"    why: {self.why}"]
        if self.tokens:
            ids = [f"={i}" for i in self.ids] if len(self.ids) == len(self.tokens) else [""] * len(self.tokens)
            shown = ", ".join(f"{token!r}{i}" for token, i in zip(self.tokens, ids))
            lines.append(f"    tokens: {shown}" + (" ..." if self.count > len(self.tokens) else ""))
        lines += [f"    {detail}" for detail in self.details]
        return "\n".join(lines)


def finding(code: str, severity: str, message: str, why: str, pairs: list[tuple[str, int]] | None = None,
            count: int | None = None, details: Iterable[str] = ()) -> list[Finding]:
    """The finding, with a sample of its (token, id) pairs and of its details, in a list; an
    empty list when it counts nothing (so a check returns what it finds, or nothing)."""
    pairs = pairs or []
    count = len(pairs) if count is None else count
    if not count:
        return []
    return [Finding(code, severity, message, why, count, [token for token, _ in pairs[:SAMPLE]],
                    [i for _, i in pairs[:SAMPLE]], list(details)[:DETAILS])]


def vocab_pairs(model: Any) -> tuple[list[str], list[int]]:
    """The model's vocabulary as parallel lists of tokens and ids (duplicates kept)."""
    vocab = model.vocab
    if isinstance(vocab, dict):
        return list(vocab), list(vocab.values())
    return [entry[0] for entry in vocab], list(range(len(vocab)))


def as_dict(component: Any) -> Any:
    """A component's tokenizer.json form, or None (absent, or not expressible there)."""
    if component is None:
        return None
    try:
        return component.to_dict()
    except (UnsupportedConversion, AttributeError, NotImplementedError):
        return None


def leaves(data: Any) -> list[dict]:
    """The leaf components of a component's tokenizer.json form (Sequences flattened)."""
    if not isinstance(data, dict):
        return []
    inner = data.get("pretokenizers") or data.get("normalizers") or data.get("processors") or data.get("decoders")
    if isinstance(inner, list):
        return [leaf for item in inner for leaf in leaves(item)]
    return [data]


def leaf_types(component: Any) -> set[str]:
    """The types of a component's leaves."""
    return {leaf.get("type") for leaf in leaves(as_dict(component))}


def is_byte_level(tokenizer: Tokenizer) -> bool:
    """True when the model sees byte-level text (a ByteLevel pre-tokenizer or normalizer)."""
    return "ByteLevel" in leaf_types(tokenizer.pre_tokenizer) | leaf_types(tokenizer.normalizer)
