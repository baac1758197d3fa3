"""TemplateProcessing: `$A`, `$B` and special tokens in any layout, with type ids; its tokenizer.json forms (strings
such as "[CLS]:0" or objects) and bos_eos_template, the template sentencepiece's and GGUF's flags ask for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Union

from ..encoding import Encoding
from ..errors import FormatError, TokenizationError
from ..pipeline.fields import as_str, as_uint, field_value, require_object
from .base import ALONE, PostProcessor, SingleLayout


@dataclass(frozen=True)
class SequencePiece:
    """A template item standing for input sequence "A" or "B", with the type id to give it."""

    id: str
    type_id: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"Sequence": {"id": self.id, "type_id": self.type_id}}


@dataclass(frozen=True)
class SpecialPiece:
    """A template item standing for the special token named `id`, with its type id."""

    id: str
    type_id: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"SpecialToken": {"id": self.id, "type_id": self.type_id}}


Piece = Union[SequencePiece, SpecialPiece]


@dataclass
class SpecialToken:
    """A named special token of a template; one name may stand for several ids/tokens."""

    id: str
    ids: list[int]
    tokens: list[str]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"id": self.id, "ids": list(self.ids), "tokens": list(self.tokens)}


def _parse_u32(text: str) -> int | None:
    """Rust's `u32::from_str`: an optional '+' then ASCII digits; None when invalid."""
    digits = text[1:] if text.startswith("+") else text
    if not digits or any(c not in "0123456789" for c in digits):
        return None
    value = int(digits)
    return value if value < 2**32 else None


def _parse_piece_id(text: str) -> Piece | None:
    """`$`, `$A`, `$b`, `$N` (sequence A with type id N) or a special token name."""
    if not text.startswith("$"):
        return SpecialPiece(text)
    rest = text[1:]
    if rest in ("", "A", "a"):
        return SequencePiece("A")
    if rest in ("B", "b"):
        return SequencePiece("B")
    type_id = _parse_u32(rest)
    return None if type_id is None else SequencePiece("A", type_id)


def parse_piece(text: str) -> Piece:
    """One item of HF's template string syntax, e.g. `$A`, `$B:1`, `$1`, `[SEP]:1`."""
    parts = text.split(":")
    piece = _parse_piece_id(parts[0]) if len(parts) <= 2 else None
    if piece is not None and len(parts) == 2:
        type_id = _parse_u32(parts[1])
        piece = None if type_id is None else type(piece)(piece.id, type_id)
    if piece is None:
        raise ValueError(f'Cannot build Piece from string "{text}"')
    return piece


def parse_template(template: str | Iterable[str | Piece]) -> list[Piece]:
    """A template given as "[CLS] $A [SEP]" (split on single spaces) or as a list of items."""
    items = template.split(" ") if isinstance(template, str) else template
    return [item if isinstance(item, (SequencePiece, SpecialPiece)) else parse_piece(item)
            for item in items]


def _special_token_from_python(item: Any) -> SpecialToken:
    """(token, id), (id, token), a {"id", "ids", "tokens"} dict, or a SpecialToken."""
    if isinstance(item, SpecialToken):
        return item
    if isinstance(item, tuple) and len(item) == 2:
        token, token_id = item if isinstance(item[0], str) else (item[1], item[0])
        if isinstance(token, str) and isinstance(token_id, int) and not isinstance(token_id, bool):
            return SpecialToken(token, [token_id], [token])
    if isinstance(item, dict):
        for key in ("id", "ids", "tokens"):
            if key not in item:
                raise ValueError(f"`{key}` must be specified")
        if len(item["ids"]) != len(item["tokens"]):
            raise ValueError("SpecialToken: ids and tokens must be of the same length")
        return SpecialToken(item["id"], list(item["ids"]), list(item["tokens"]))
    raise TypeError("Expected Union[Tuple[str, int], Tuple[int, str], dict]")


class TemplateProcessing(PostProcessor):
    """Specials and type ids placed by a template, e.g. single "[CLS] $A [SEP]",
    pair "[CLS] $A [SEP] $B:1 [SEP]:1".

    Built like HF's Python class (strings or lists, validated); `from_dict` reads the
    JSON form without validation, as HF's deserializer does.
    """

    def __init__(self, single: str | Iterable[str | Piece] | None = None,
                 pair: str | Iterable[str | Piece] | None = None,
                 special_tokens: Iterable[Any] | dict[str, SpecialToken] | None = None,
                 *, validate: bool = True):
        self.single: list[Piece] = parse_template("$0" if single is None else single)
        self.pair: list[Piece] = parse_template("$A:0 $B:1" if pair is None else pair)
        if isinstance(special_tokens, dict):
            self.special_tokens: dict[str, SpecialToken] = dict(special_tokens)
        else:
            self.special_tokens = {}
            for item in special_tokens or ():
                token = _special_token_from_python(item)
                self.special_tokens[token.id] = token
        # The single layouts made so far, while `single` and `special_tokens` are these objects.
        self._layouts: tuple[list[Piece], dict[str, SpecialToken], dict[bool, SingleLayout | None]] | None = None
        if validate:
            self._validate()

    def __repr__(self) -> str:
        return (f"TemplateProcessing(single={self.single!r}, pair={self.pair!r}, "
                f"special_tokens={self.special_tokens!r})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TemplateProcessing) and self.to_dict() == other.to_dict()

    def _validate(self) -> None:
        """HF's builder checks: the pair uses A and B; every special token is defined."""
        used = {piece.id for piece in self.pair if isinstance(piece, SequencePiece)}
        if used != {"A", "B"}:
            raise ValueError("Template for `pair` must use both sequences")
        missing = sorted({piece.id for piece in self.single + self.pair
                          if isinstance(piece, SpecialPiece)
                          and piece.id not in self.special_tokens})
        if missing:
            raise ValueError(f"Missing SpecialToken(s) with id(s) `{', '.join(missing)}`")

    def added_tokens(self, is_pair: bool) -> int:
        """The number of special ids the single or pair template adds (unknown names count 0)."""
        template = self.pair if is_pair else self.single
        return sum(len(self.special_tokens[piece.id].ids) for piece in template
                   if isinstance(piece, SpecialPiece) and piece.id in self.special_tokens)

    def layout(self, add_special_tokens: bool) -> SingleLayout | None:
        """The specials before and after $A in the single template; None for a template that
        does not hold $A once (`process` decides, or raises). Kept while the template and the
        specials are the same objects: `encode` asks for it per text."""
        kept = self._layouts
        if kept is None or kept[0] is not self.single or kept[1] is not self.special_tokens:
            kept = self._layouts = (self.single, self.special_tokens, {})
        if add_special_tokens not in kept[2]:
            kept[2][add_special_tokens] = self._single_layout(add_special_tokens)
        return kept[2][add_special_tokens]

    def _single_layout(self, add_special_tokens: bool) -> SingleLayout | None:
        """`layout`, made."""
        places = [index for index, piece in enumerate(self.single) if isinstance(piece, SequencePiece)]
        if len(places) != 1 or self.single[places[0]].id != "A":
            return None
        if any(isinstance(piece, SpecialPiece) and piece.id not in self.special_tokens for piece in self.single):
            return None  # `process` raises, after the model (whose errors come first, as in HF)
        place = places[0]
        type_id = self.single[place].type_id
        if not add_special_tokens:
            return ALONE if type_id == 0 else SingleLayout(type_id=type_id)
        return SingleLayout(*self._specials(self.single[:place]), type_id, *self._specials(self.single[place + 1:]))

    def _specials(self, pieces: list[Piece]) -> tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...]]:
        """The ids, strings and type ids of these special items."""
        ids: tuple[int, ...] = ()
        tokens: tuple[str, ...] = ()
        type_ids: tuple[int, ...] = ()
        for piece in pieces:
            token = self._special_token(piece)
            ids += tuple(token.ids)
            tokens += tuple(token.tokens)
            type_ids += (piece.type_id,) * len(token.ids)
        return ids, tokens, type_ids

    def process_owned(self, encoding: Encoding, pair: Encoding | None,
                      add_special_tokens: bool) -> Encoding:
        """`PostProcessor.process_owned`; a single sequence without overflowing parts (nearly every
        call) has its columns laid out in template order at once, not merged from an encoding per
        item (a third of a T5 line's time went to those copies and merges)."""
        if pair is not None or encoding.overflowing:
            return super().process_owned(encoding, pair, add_special_tokens)
        ids: list[int] = []
        type_ids: list[int] = []
        tokens: list[str] = []
        offsets: list[tuple[int, int]] = []
        special_mask: list[int] = []
        attention: list[int] = []
        words: list[int | None] = []
        ranges: dict[int, tuple[int, int]] = {}
        for piece in self.single:
            if isinstance(piece, SequencePiece):
                if piece.id != "A":
                    raise TokenizationError("the template for a single sequence uses sequence $B")
                n = len(encoding.ids)
                ranges[0] = (len(ids), len(ids) + n)
                ids += encoding.ids
                tokens += encoding.tokens
                offsets += encoding.offsets
                special_mask += encoding.special_tokens_mask
                attention += encoding.attention_mask
                words += encoding.word_ids
            elif add_special_tokens:
                token = self._special_token(piece)
                n = len(token.ids)
                ids += token.ids
                tokens += token.tokens
                offsets += [(0, 0)] * n
                special_mask += [1] * n
                attention += [1] * n
                words += [None] * n
            else:
                continue
            type_ids += [piece.type_id] * n
        return Encoding(ids, type_ids, tokens, offsets, special_mask, attention, words, [], ranges)

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        """One encoding per template item, in template order (merged by the caller)."""
        template = self.pair if len(encodings) == 2 else self.single
        parts = []
        for piece in template:
            if isinstance(piece, SequencePiece):
                index = 0 if piece.id == "A" else 1
                if index >= len(encodings):
                    raise TokenizationError("the template for a single sequence uses sequence $B")
                encoding = encodings[index]
                encoding.type_ids = [piece.type_id] * len(encoding.ids)
                encoding.set_sequence_id(index)
                parts.append(encoding.copy())
            elif add_special_tokens:
                parts.append(self._special_encoding(piece))
        return parts

    def _special_token(self, piece: SpecialPiece) -> SpecialToken:
        """The special token a template item names."""
        token = self.special_tokens.get(piece.id)
        if token is None:
            raise FormatError(f"Missing SpecialToken(s) with id(s) `{piece.id}`",
                              field="special_tokens")
        return token

    def _special_encoding(self, piece: SpecialPiece) -> Encoding:
        """The encoding of one special item: offsets (0, 0), no word, special mask 1."""
        token = self._special_token(piece)
        n = len(token.ids)
        return Encoding(list(token.ids), [piece.type_id] * n, list(token.tokens), [(0, 0)] * n,
                        [1] * n, [1] * n, [None] * n, [], {})

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form; special tokens sorted by name as HF writes them."""
        return {"type": "TemplateProcessing",
                "single": [piece.to_dict() for piece in self.single],
                "pair": [piece.to_dict() for piece in self.pair],
                "special_tokens": {name: self.special_tokens[name].to_dict()
                                   for name in sorted(self.special_tokens)}}

    @classmethod
    def from_dict(cls, data: Any) -> "TemplateProcessing":
        """Read the tokenizer.json form (`type` is not checked, as in HF)."""
        data = require_object(data, "a post-processor")
        single = _read_template(field_value(data, "single"), "single")
        pair = _read_template(field_value(data, "pair"), "pair")
        special = _read_special_tokens(field_value(data, "special_tokens"))
        return cls(single, pair, special, validate=False)


def _read_template(value: Any, name: str) -> list[Piece]:
    """A list of {"Sequence": {...}} / {"SpecialToken": {...}} items."""
    if not isinstance(value, list):
        raise FormatError(f"expected a list of template items, got {value!r}", field=name)
    return [_read_piece(item, f"{name}[{i}]") for i, item in enumerate(value)]


def _read_piece(item: Any, name: str) -> Piece:
    """One template item of the JSON form."""
    if not isinstance(item, dict) or len(item) != 1:
        raise FormatError(f'expected {{"Sequence": ...}} or {{"SpecialToken": ...}}, got {item!r}',
                          field=name)
    (kind, body), = item.items()
    if kind not in ("Sequence", "SpecialToken") or not isinstance(body, dict):
        raise FormatError(f"unknown template item {kind!r}", field=name)
    try:
        type_id = as_uint(field_value(body, "type_id"), "type_id")
        piece_id = field_value(body, "id")
    except FormatError as error:
        raise error.at(field=f"{name}.{kind}") from None
    if kind == "Sequence":
        if piece_id not in ("A", "B"):
            raise FormatError(f"unknown variant {piece_id!r}, expected `A` or `B`",
                              field=f"{name}.Sequence.id")
        return SequencePiece(piece_id, type_id)
    return SpecialPiece(as_str(piece_id, f"{name}.SpecialToken.id"), type_id)


def _read_special_tokens(value: Any) -> dict[str, SpecialToken]:
    """{name: {"id", "ids", "tokens"}}; the map key is the name templates use."""
    if not isinstance(value, dict):
        raise FormatError(f"expected an object, got {value!r}", field="special_tokens")
    tokens = {}
    for name, body in value.items():
        where = f"special_tokens.{name}"
        if not isinstance(body, dict):
            raise FormatError(f"expected an object, got {body!r}", field=where)
        try:
            token_id = as_str(field_value(body, "id"), "id")
            ids = field_value(body, "ids")
            strings = field_value(body, "tokens")
            if not isinstance(ids, list):
                raise FormatError(f"expected a list, got {ids!r}", field="ids")
            if not isinstance(strings, list):
                raise FormatError(f"expected a list, got {strings!r}", field="tokens")
            ids = [as_uint(i, "ids") for i in ids]
            strings = [as_str(s, "tokens") for s in strings]
        except FormatError as error:
            raise error.at(field=where) from None
        tokens[name] = SpecialToken(token_id, ids, strings)
    return tokens


def bos_eos_template(bos: tuple[str, int] | None, eos: tuple[str, int] | None) -> dict | None:
    """The tokenizer.json TemplateProcessing that puts a bos token (content, id) before each
    sequence and an eos token after it (`<s> $A </s> <s> $B </s>`, B with type id 1), or None
    when there is neither; what sentencepiece's add_bos/add_eos and GGUF's flags ask for."""
    if bos is None and eos is None:
        return None

    def template(type_id: int, sequence: str) -> list[dict]:
        items = [{"Sequence": {"id": sequence, "type_id": type_id}}]
        if bos is not None:
            items.insert(0, {"SpecialToken": {"id": bos[0], "type_id": type_id}})
        if eos is not None:
            items.append({"SpecialToken": {"id": eos[0], "type_id": type_id}})
        return items

    used = [token for token in (bos, eos) if token is not None]
    return {"type": "TemplateProcessing", "single": template(0, "A"), "pair": template(0, "A") + template(1, "B"),
            "special_tokens": {content: {"id": content, "ids": [token_id], "tokens": [content]}
                               for content, token_id in used}}
