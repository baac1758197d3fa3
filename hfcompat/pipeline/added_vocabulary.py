"""Added and special tokens: found in the text before the model ever sees it."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterable

import regex

from ..errors import FormatError
from .normalized import NormalizedString, PreTokenizedString, Split, Token, is_whitespace
from .oniguruma import onig_view

_WORD_CHAR = regex.compile(r"\w")


@dataclass(frozen=True)
class AddedToken:
    """A token matched on the text as a whole, with HF's matching options."""

    content: str
    single_word: bool = False
    lstrip: bool = False
    rstrip: bool = False
    normalized: bool = True
    special: bool = False

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "AddedToken":
        """Read one entry of tokenizer.json's `added_tokens` (its `id` is not used)."""
        if not isinstance(data, dict) or not isinstance(data.get("content"), str):
            raise FormatError("an added token needs a string `content`", field="added_tokens")
        options = {}
        for name in ("single_word", "lstrip", "rstrip", "normalized", "special"):
            if name in data:
                if not isinstance(data[name], bool):
                    raise FormatError(f"`{name}` must be true or false", field=f"added_tokens.{name}")
                options[name] = data[name]
        return cls(data["content"], **options)

    def to_dict(self, token_id: int) -> dict[str, Any]:
        """The tokenizer.json entry for this token under `token_id`."""
        return {"id": token_id, **asdict(self)}


class AddedVocabulary:
    """The added tokens of a tokenizer and the two matchers HF runs over the input."""

    def __init__(self) -> None:
        self.token_to_id: dict[str, int] = {}
        self.id_to_added: dict[int, AddedToken] = {}
        self.special_tokens: set[str] = set()
        self.normalized_form: dict[int, str] = {}
        self.encode_special_tokens = False
        # What lstrip/rstrip take: Unicode White_Space as tokenizers, or str.isspace (which also counts
        # U+001C-U+001F) as transformers' Python tokenizers.
        self.is_strippable: Callable[[str], bool] = is_whitespace
        self._raw_matcher: _Matcher | None = None
        self._normalized_matcher: _Matcher | None = None

    def __len__(self) -> int:
        return len(self.token_to_id)

    def add_tokens(self, tokens: Iterable[AddedToken], model: Any,
                   normalize: Callable[[str], str] | None) -> int:
        """Add tokens (HF's id assignment: an existing id, else the next free one); count new."""
        vocab_size = model.get_vocab_size()
        if self.id_to_added:
            highest = max(self.id_to_added)
            next_id = highest + 1 if highest >= vocab_size or vocab_size == 0 else vocab_size
        else:
            next_id = vocab_size
        added = 0
        for token in tokens:
            if not token.content:
                continue
            known = self.token_to_id.get(token.content)
            if known is not None and self.id_to_added.get(known) == token:
                continue
            token_id = known if known is not None else model.token_to_id(token.content)
            if token_id is None:
                token_id, next_id = next_id, next_id + 1
            if token.normalized and normalize is not None:
                form = normalize(token.content)
                if form != token.content:
                    self.normalized_form[token_id] = form
            self.token_to_id[token.content] = token_id
            if token.special:
                self.special_tokens.add(token.content)
            self.id_to_added[token_id] = token
            added += 1
        self._build_matchers()
        return added

    def refresh_normalized(self, normalize: Callable[[str], str] | None) -> None:
        """Recompute the normalized forms after the normalizer changed."""
        self.normalized_form = {}
        for token_id, token in self.id_to_added.items():
            if token.normalized and normalize is not None:
                form = normalize(token.content)
                if form != token.content:
                    self.normalized_form[token_id] = form
        self._build_matchers()

    def id_to_token(self, token_id: int) -> str | None:
        """The string of an added id, in normalized form when it has one."""
        if token_id not in self.id_to_added:
            return None
        return self.normalized_form.get(token_id, self.id_to_added[token_id].content)

    def is_special(self, token: str) -> bool:
        """Whether `token` is the content of a special token."""
        return token in self.special_tokens

    def sorted_entries(self) -> list[tuple[int, AddedToken]]:
        """(id, token) pairs by ascending id, as tokenizer.json lists them."""
        return sorted(self.id_to_added.items())

    def _build_matchers(self) -> None:
        """Build the raw-text and normalized-text matchers."""
        raw: dict[str, int] = {}
        normalized: dict[str, int] = {}
        for token_id, token in self.id_to_added.items():
            if token.normalized:
                normalized[self.normalized_form.get(token_id, token.content)] = token_id
            else:
                raw[token.content] = token_id
        self._raw_matcher = _Matcher(raw) if raw else None
        self._normalized_matcher = _Matcher(normalized) if normalized else None

    def extract_and_normalize(self, normalize: Callable[[NormalizedString], None] | None,
                              sequence: str) -> PreTokenizedString:
        """Split out raw added tokens, normalize the rest, then split out normalized ones."""
        pretokenized = PreTokenizedString(sequence)
        if self._raw_matcher is not None:
            pretokenized.splits = self._split(pretokenized.splits[0].normalized, self._raw_matcher)
        splits: list[Split] = []
        for split in pretokenized.splits:
            if split.tokens is not None:
                splits.append(split)
                continue
            if normalize is not None:
                normalize(split.normalized)
            splits.extend(self.split_normalized(split.normalized))
        pretokenized.splits = [s for s in splits if s.normalized.normalized]
        return pretokenized

    def split_normalized(self, ns: NormalizedString) -> list[Split]:
        """Cut a normalized segment around the normalized added tokens found in it."""
        if self._normalized_matcher is None:
            return [Split(_whole(ns))]
        return self._split(ns, self._normalized_matcher)

    def may_match(self, text: str, normalized: bool) -> bool:
        """Whether an added token (raw, or normalized) occurs in `text` at all."""
        matcher = self._normalized_matcher if normalized else self._raw_matcher
        return matcher is not None and matcher.regex.search(text) is not None

    def _split(self, ns: NormalizedString, matcher: "_Matcher") -> list[Split]:
        """Cut `ns` around the added tokens found in it."""
        text = ns.normalized
        matches = matcher.find(text)
        if not matches:
            return [Split(_whole(ns))]
        pieces: list[Split] = []
        start_offset = 0
        for start, stop, token_id in matches:
            token = self.id_to_added[token_id]
            if self.encode_special_tokens and token.content in self.special_tokens:
                continue
            if token.single_word and not _stands_alone(text, start, stop):
                continue
            if token.lstrip:
                while start > start_offset and self.is_strippable(text[start - 1]):
                    start -= 1
                # A match inside the spaces the previous token's rstrip took starts where they end
                # (HF clamps only here: without lstrip the match overlaps the previous one).
                start = max(start, start_offset)
            if token.rstrip:
                while stop < len(text) and self.is_strippable(text[stop]):
                    stop += 1
            if start_offset < start:
                pieces.append(Split(ns.slice(start_offset, start)))
            piece = ns.slice(start, stop)
            value = piece.normalized
            pieces.append(Split(piece, [Token(token_id, value, (0, len(value.encode())))]))
            start_offset = stop
        if start_offset != len(text) or not pieces:
            pieces.append(Split(ns.slice(start_offset, len(text))))
        return pieces

    def to_list(self) -> list[dict[str, Any]]:
        """tokenizer.json's `added_tokens`."""
        return [token.to_dict(token_id) for token_id, token in self.sorted_entries()]


def _whole(ns: NormalizedString) -> NormalizedString:
    """`ns` cut to what its normalized text covers, as HF's split does even without a match."""
    return ns if ns.is_identity() else ns.slice(0, len(ns.normalized))


def _stands_alone(text: str, start: int, stop: int) -> bool:
    """No word char touches text[start:stop] on either side: `\\w` of Rust's regex crate, whose
    Unicode 16 tables are Oniguruma's (a char assigned since is no word char to it)."""
    before = start == 0 or not _WORD_CHAR.match(onig_view(text[start - 1]))
    after = stop == len(text) or not _WORD_CHAR.match(onig_view(text[stop]))
    return before and after


class _Matcher:
    """Leftmost-longest, non-overlapping search for a set of literal strings."""

    def __init__(self, patterns: dict[str, int]):
        self.ids = patterns
        alternatives = sorted(patterns, key=len, reverse=True)
        # Literals only, so `re` (which compiles a few hundred of them 3x faster than `regex`)
        self.regex = re.compile("|".join(map(re.escape, alternatives)))

    def find(self, text: str) -> list[tuple[int, int, int]]:
        """(start, end, id) of each match, left to right."""
        ids = self.ids
        return [(m.start(), m.end(), ids[m.group()]) for m in self.regex.finditer(text)]
