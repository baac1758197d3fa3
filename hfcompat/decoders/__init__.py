"""Decoders: turn the list of token strings back into text, as HF `tokenizers` 0.23.3 does.

The folder also holds bytes-to-text decoding with tiktoken's error modes and a streaming
decoder (utf8.py), transformers' byte-class decode (byte_chars.py) and Moses detokenization on sacremoses
(moses.py).

Every decoder maps a token list to a token list (`decode_chain`) so that a `Sequence` can chain
them; `decode` concatenates the final list. The per-token structure matters: several decoders
(WordPiece, Metaspace, Strip, BPEDecoder, Replace) act on each token separately, so the boundaries
another decoder leaves behind change the result.

`from_dict` reads the tokenizer.json "decoder" object with HF's rules: a known "type" selects the
decoder and its mandatory fields; an object without a known "type" is tried, in HF's order, as each
decoder that can be read untagged (BPEDecoder, WordPiece, CTC, Replace, Strip).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import FormatError, TokenizationError, UnsupportedConversion
from ..normalizers import Replace as ReplaceNormalizer
from ..pipeline.bytelevel import BYTELEVEL_TO_LATIN1
from ..pipeline.fields import (USIZE_MAX, as_bool, as_char, as_str, as_uint, component_list, field_value,
                               require_object)
from ..pipeline.oniguruma import find_spans
from ..pre_tokenizers import Metaspace as MetaspacePreTokenizer

REPLACEMENT_CHAR = "\ufffd"

# The replacements of HF's WordPiece decoder `cleanup`, applied one after the other.
_CLEANUP_RULES: tuple[tuple[str, str], ...] = (
    (" .", "."),
    (" ?", "?"),
    (" !", "!"),
    (" ,", ","),
    (" ' ", "'"),
    (" n't", "n't"),
    (" 'm", "'m"),
    (" do not", " don't"),
    (" 's", "'s"),
    (" 've", "'ve"),
    (" 're", "'re"),
)
# transformers' `clean_up_tokenization` has the same rules, in the same order, but no "do not".
_TRANSFORMERS_CLEANUP_RULES = tuple(rule for rule in _CLEANUP_RULES if rule[0] != " do not")


def _apply_rules(text: str, rules: tuple[tuple[str, str], ...]) -> str:
    """Apply each (old, new) literal replacement in turn."""
    if " " not in text:  # every rule starts with a space
        return text
    for old, new in rules:
        text = text.replace(old, new)
    return text


def wordpiece_cleanup(text: str) -> str:
    """HF `tokenizers`' cleanup of tokenization artifacts (WordPiece and CTC decoders)."""
    return _apply_rules(text, _CLEANUP_RULES)


def clean_up_tokenization(text: str) -> str:
    """transformers' `clean_up_tokenization` (`clean_up_tokenization_spaces=True`): no "do not" rule."""
    return _apply_rules(text, _TRANSFORMERS_CLEANUP_RULES)


# --------------------------------------------------------------------------- field reading


# --------------------------------------------------------------------------- decoders


class Decoder:
    """Base of all decoders: `decode` joins what `decode_chain` returns."""

    TYPE: ClassVar[str] = ""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Decode each token (or the whole list) into a new list of strings."""
        raise NotImplementedError

    def decode(self, tokens: list[str]) -> str:
        """Decode the tokens into the final text."""
        return "".join(self.decode_chain(list(tokens)))

    def prepare_ids(self, ids: list[int]) -> list[int]:
        """The ids to decode, before they become tokens (a CTC decoder collapses repeats); as they are here."""
        return ids

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form of this decoder."""
        raise NotImplementedError


def _bytelevel_token_bytes(token: str) -> bytes:
    """The bytes a token stands for: its byte-level bytes, or its UTF-8 if a char is outside the alphabet."""
    try:
        return token.translate(BYTELEVEL_TO_LATIN1).encode("latin-1")
    except UnicodeEncodeError:
        return token.encode("utf-8", "surrogatepass")


@dataclass
class ByteLevel(Decoder):
    """GPT-2 byte-level: byte chars back to bytes, then one lossy UTF-8 decode of everything."""

    add_prefix_space: bool = True
    trim_offsets: bool = True
    use_regex: bool = True
    TYPE: ClassVar[str] = "ByteLevel"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Return one string: the UTF-8 decode, one U+FFFD per maximal invalid subpart."""
        try:  # fast path: every token is byte-level
            data = "".join(tokens).translate(BYTELEVEL_TO_LATIN1).encode("latin-1")
        except UnicodeEncodeError:
            data = b"".join(_bytelevel_token_bytes(token) for token in tokens)
        return [data.decode("utf-8", "replace")]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "add_prefix_space": self.add_prefix_space,
                "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}

    @classmethod
    def from_dict(cls, data: dict) -> "ByteLevel":
        """Read the tokenizer.json form (add_prefix_space and trim_offsets are mandatory)."""
        return cls(
            add_prefix_space=as_bool(field_value(data, "add_prefix_space"), "add_prefix_space"),
            trim_offsets=as_bool(field_value(data, "trim_offsets"), "trim_offsets"),
            use_regex=as_bool(field_value(data, "use_regex", True), "use_regex"),
        )


@dataclass
class WordPiece(Decoder):
    """WordPiece: continuation tokens lose their prefix, others get a leading space."""

    prefix: str = "##"
    cleanup: bool = True
    TYPE: ClassVar[str] = "WordPiece"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Join pieces per token; the first token is kept as is (even with the prefix)."""
        prefix, size = self.prefix, len(self.prefix)
        out = []
        for i, token in enumerate(tokens):
            if i:
                token = token[size:] if token.startswith(prefix) else " " + token
            if self.cleanup:
                token = wordpiece_cleanup(token)
            out.append(token)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "prefix": self.prefix, "cleanup": self.cleanup}

    @classmethod
    def from_dict(cls, data: dict) -> "WordPiece":
        """Read the tokenizer.json form (prefix and cleanup are mandatory)."""
        return cls(prefix=as_str(field_value(data, "prefix"), "prefix"),
                   cleanup=as_bool(field_value(data, "cleanup"), "cleanup"))


class Metaspace(MetaspacePreTokenizer, Decoder):
    """Metaspace: the replacement char becomes a space; the first token loses all of them.

    HF uses one object as pre-tokenizer and decoder, so this is the pre-tokenizer with
    `decode_chain`: fields, checks and JSON form come from `pre_tokenizers.Metaspace`.
    """

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Replace the replacement char by a space, deleting it in the first token unless `never`."""
        replacement = self.replacement
        out = [token.replace(replacement, " ") for token in tokens]
        if out and self.prepend_scheme != "never":
            out[0] = tokens[0].replace(replacement, "")
        return out


@dataclass
class BPEDecoder(Decoder):
    """Classic BPE: the end-of-word suffix becomes a space (removed in the last token)."""

    suffix: str = "</w>"
    TYPE: ClassVar[str] = "BPEDecoder"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Replace every occurrence of the suffix in each token."""
        last = len(tokens) - 1
        return [token.replace(self.suffix, "" if i == last else " ") for i, token in enumerate(tokens)]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "suffix": self.suffix}

    @classmethod
    def from_dict(cls, data: dict) -> "BPEDecoder":
        """Read the tokenizer.json form (suffix is mandatory)."""
        return cls(suffix=as_str(field_value(data, "suffix"), "suffix"))


_HEX_DIGITS = "0123456789abcdefABCDEF"
# Every token HF reads as one byte: `<0xHH>` with two hex digits of either case, or, because Rust's
# `u8::from_str_radix` accepts a plus sign, `<0x+H>`.
_BYTE_TOKENS: dict[str, int] = {
    f"<0x{hi}{lo}>": int(hi + lo, 16)
    for hi, lo in itertools.chain(itertools.product(_HEX_DIGITS, repeat=2),
                                  itertools.product("+", _HEX_DIGITS))
}


def _flush_bytes(run: list[int], out: list[str]) -> None:
    """Emit a run of byte tokens: its text if valid UTF-8, else one U+FFFD per byte."""
    try:
        out.append(bytes(run).decode("utf-8"))
    except UnicodeDecodeError:
        out.extend([REPLACEMENT_CHAR] * len(run))
    run.clear()


@dataclass
class ByteFallback(Decoder):
    """Byte fallback: runs of `<0xHH>` tokens become the text their bytes spell."""

    TYPE: ClassVar[str] = "ByteFallback"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Merge each run of byte tokens into one token (or one U+FFFD per byte if invalid)."""
        out: list[str] = []
        run: list[int] = []
        byte_tokens = _BYTE_TOKENS
        for token in tokens:
            byte = byte_tokens.get(token)
            if byte is not None:
                run.append(byte)
                continue
            if run:
                self.flush(run, out)
            out.append(token)
        if run:
            self.flush(run, out)
        return out

    def flush(self, run: list[int], out: list[str]) -> None:
        """Emit a run of byte tokens: its text if valid UTF-8, else one U+FFFD per byte."""
        _flush_bytes(run, out)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE}

    @classmethod
    def from_dict(cls, data: dict) -> "ByteFallback":
        """Read the tokenizer.json form (no fields)."""
        return cls()


_UTF8_LENGTHS = ((0x80, 1), (0xE0, 2), (0xF0, 3), (0xF8, 4))


@dataclass
class SentencePieceByteFallback(ByteFallback):
    """sentencepiece's decode of byte pieces: each UTF-8 character a run spells, and one U+FFFD for each byte
    that starts no valid character (tokenizers' ByteFallback gives U+FFFD for every byte of a run holding an
    invalid one). hfcompat's own: a tokenizer.json cannot hold it."""

    TYPE: ClassVar[str] = ""

    def flush(self, run: list[int], out: list[str]) -> None:
        """Emit a run of byte tokens character by character."""
        data, index, chars = bytes(run), 0, []
        while index < len(data):
            length = next((n for limit, n in _UTF8_LENGTHS if data[index] < limit), 1)
            try:
                chars.append(data[index:index + length].decode("utf-8"))
                index += length
            except UnicodeDecodeError:
                chars.append(REPLACEMENT_CHAR)
                index += 1
        out.append("".join(chars))
        run.clear()

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizers' ByteFallback replaces a whole invalid run."""
        raise UnsupportedConversion("decoder: sentencepiece's byte decode (one U+FFFD per byte that starts no "
                                    "valid character) has no form in tokenizer.json (ByteFallback replaces "
                                    "every byte of an invalid run)")


@dataclass
class Fuse(Decoder):
    """Fuse: all tokens into one."""

    TYPE: ClassVar[str] = "Fuse"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Return the concatenation as a single token."""
        return ["".join(tokens)]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE}

    @classmethod
    def from_dict(cls, data: dict) -> "Fuse":
        """Read the tokenizer.json form (no fields)."""
        return cls()


@dataclass
class Strip(Decoder):
    """Strip: remove up to `start` leading and `stop` trailing `content` chars of each token."""

    content: str = " "
    start: int = 0
    stop: int = 0
    TYPE: ClassVar[str] = "Strip"

    def __post_init__(self) -> None:
        """Check the values HF would refuse."""
        as_char(self.content, "content")
        as_uint(self.start, "start", USIZE_MAX)
        as_uint(self.stop, "stop", USIZE_MAX)

    def _strip(self, token: str) -> str:
        """Strip one token; fail where HF's Rust code panics (the cuts cross or run off the start)."""
        content, size = self.content, len(token)
        start_cut = 0
        while start_cut < min(self.start, size) and token[start_cut] == content:
            start_cut += 1
        stop_cut = size
        for _ in range(self.stop):
            if stop_cut == 0:
                raise TokenizationError(f"Strip decoder: index out of bounds on token {token!r}")
            if token[stop_cut - 1] != content:
                break
            stop_cut -= 1
        if start_cut > stop_cut:
            raise TokenizationError(
                f"Strip decoder: slice index starts at {start_cut} but ends at {stop_cut} on token {token!r}")
        return token[start_cut:stop_cut]

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Strip every token."""
        if self.start == 0 and self.stop == 0:
            return list(tokens)
        return [self._strip(token) for token in tokens]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "content": self.content, "start": self.start, "stop": self.stop}

    @classmethod
    def from_dict(cls, data: dict) -> "Strip":
        """Read the tokenizer.json form (all fields are mandatory)."""
        return cls(content=as_char(field_value(data, "content"), "content"),
                   start=as_uint(field_value(data, "start"), "start", USIZE_MAX),
                   stop=as_uint(field_value(data, "stop"), "stop", USIZE_MAX))


class Replace(ReplaceNormalizer, Decoder):
    """Replace: every match of `pattern` in each token becomes `content`.

    HF uses one object as normalizer and decoder, so this is the normalizer with `decode_chain`:
    fields, JSON form and regex compilation all come from `normalizers.Replace`.
    """

    def _replace(self, token: str) -> str:
        """Replace in one token; an empty token stays empty (HF never matches inside it)."""
        if not token:
            return token
        if not self.is_regex:
            # Leftmost non-overlapping literal matches, empty pattern included, as Oniguruma finds them.
            return token.replace(self.pattern, self.content)
        pieces, previous = [], 0
        for start, end in find_spans(self._compiled, token):
            pieces.append(token[previous:start])
            pieces.append(self.content)
            previous = end
        pieces.append(token[previous:])
        return "".join(pieces)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Replace in every token."""
        return [self._replace(token) for token in tokens]


@dataclass
class CTC(Decoder):
    """CTC: collapse repeats, drop padding, turn the word delimiter into a space."""

    pad_token: str = "<pad>"
    word_delimiter_token: str = "|"
    cleanup: bool = True
    TYPE: ClassVar[str] = "CTC"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Dedup consecutive tokens, then clean each one; empty results are dropped."""
        out = []
        for token, _ in itertools.groupby(tokens):
            token = token.replace(self.pad_token, "")
            if self.cleanup:
                token = wordpiece_cleanup(token).replace(self.word_delimiter_token, " ")
            if token:
                out.append(token)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "pad_token": self.pad_token,
                "word_delimiter_token": self.word_delimiter_token, "cleanup": self.cleanup}

    @classmethod
    def from_dict(cls, data: dict) -> "CTC":
        """Read the tokenizer.json form (all fields are mandatory)."""
        return cls(pad_token=as_str(field_value(data, "pad_token"), "pad_token"),
                   word_delimiter_token=as_str(field_value(data, "word_delimiter_token"),
                                               "word_delimiter_token"),
                   cleanup=as_bool(field_value(data, "cleanup"), "cleanup"))


@dataclass
class Sequence(Decoder):
    """Sequence: each decoder works on the token list the previous one returned."""

    decoders: list[Decoder] = field(default_factory=list)
    TYPE: ClassVar[str] = "Sequence"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Run the decoders in order."""
        for decoder in self.decoders:
            tokens = decoder.decode_chain(tokens)
        return tokens

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "decoders": [decoder.to_dict() for decoder in self.decoders]}

    @classmethod
    def from_dict(cls, data: dict) -> "Sequence":
        """Read the tokenizer.json form (decoders is mandatory)."""
        return cls(component_list(data, "decoders", from_dict))


@dataclass
class CleanedUp(Decoder):
    """transformers' decode with clean_up_tokenization_spaces on: the inner decoder's text with its clean-up
    rules (" ." -> ".", " 's" -> "'s", ...). hfcompat's own: a tokenizer.json cannot hold it."""

    inner: Decoder
    TYPE: ClassVar[str] = ""
    clean_up: ClassVar[bool] = True

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """One string: the inner decode, cleaned up."""
        return [clean_up_tokenization(self.inner.decode(tokens))]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no decoder of tokenizer.json applies transformers' clean-up."""
        raise UnsupportedConversion("decoder: transformers' clean_up_tokenization_spaces (spaces before "
                                    "punctuation and contractions removed), which no tokenizer.json decoder does")


@dataclass
class RewrittenText(Decoder):
    """What a transformers class does to the decoded text: the inner decoder's text with each match of
    `pattern` (a Python regex) replaced, then, with `strip`, stripped of whitespace at both ends (str.strip).
    CLIPTokenizer turns "</w>" into spaces and strips; WhisperTokenizer drops timestamp tokens' text.
    hfcompat's own: a tokenizer.json cannot hold it."""

    inner: Decoder
    pattern: str
    replacement: str
    strip: bool = False
    TYPE: ClassVar[str] = ""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """One string: the inner decode, rewritten."""
        text = re.sub(self.pattern, self.replacement, self.inner.decode(tokens))
        return [text.strip() if self.strip else text]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no decoder of tokenizer.json rewrites the joined text with a regex."""
        raise UnsupportedConversion(f"decoder: the decoded text is rewritten ({self.pattern!r} -> "
                                    f"{self.replacement!r}{', stripped' if self.strip else ''}) as a "
                                    "transformers class does, which no tokenizer.json decoder does")


@dataclass
class SpecialTokenRuns(Decoder):
    """What transformers' GPTSw3Tokenizer does in decode: the pieces between special tokens are decoded by the
    inner decoder run by run, each special token is kept as it is, and a space comes before the first special
    token after a run (`space_before`; M2M100Tokenizer has none) or after each special token (`space_after`:
    Speech2TextTokenizer, MarianTokenizer). hfcompat's own: a tokenizer.json cannot hold it."""

    inner: Decoder
    specials: frozenset[str]
    space_before: bool = True
    space_after: bool = False
    TYPE: ClassVar[str] = ""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """One string: each run decoded, special tokens spliced in."""
        out, run, previous_special = [], [], False
        for token in tokens:
            if token in self.specials:
                if self.space_before and not previous_special:
                    out.append(" ")
                out += [self.inner.decode(run), token, " " if self.space_after else ""]
                run = []
            else:
                run.append(token)
            previous_special = token in self.specials
        return ["".join(out) + self.inner.decode(run)]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no decoder of tokenizer.json decodes the runs between special tokens apart."""
        raise UnsupportedConversion("decoder: the pieces between special tokens are decoded run by run, with a "
                                    "space before special tokens, as a transformers class does, which no "
                                    "tokenizer.json decoder does")


DECODER_TYPES: dict[str, type] = {
    cls.TYPE: cls for cls in (ByteLevel, WordPiece, Metaspace, BPEDecoder, ByteFallback, Fuse,
                              Strip, Replace, CTC, Sequence)
}
# The decoders HF can read from an object without a known "type", in the order it tries them.
_UNTAGGED_ORDER = (BPEDecoder, WordPiece, CTC, Replace, Strip)


def from_dict(data: Any) -> Decoder:
    """Build a decoder from its tokenizer.json form."""
    require_object(data, "a decoder")
    kind = data.get("type")
    cls = DECODER_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is not None:
        return cls.from_dict(data)
    for candidate in _UNTAGGED_ORDER:
        try:
            return candidate.from_dict(data)
        except FormatError:
            continue
    known = ", ".join(DECODER_TYPES)
    if "type" not in data:
        raise FormatError(f"missing decoder type (one of {known})", field="type")
    raise FormatError(f"unknown decoder type {kind!r} (expected one of {known})", field="type")
