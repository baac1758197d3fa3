"""sentencepiece's normalizer as it runs a NormalizerSpec, with the map from each normalized byte
back to the input byte it came from (sentencepiece's `norm_to_orig`).

The steps, in sentencepiece's order: leading spaces skipped (remove_extra_whitespaces), the
dummy "▁" put first (or last with treat_whitespace_as_suffix), then chunk by chunk the longest
user-defined symbol or the longest charsmap rule prefixing the rest (else one char; a byte that
starts no UTF-8 char becomes U+FFFD), spaces of a chunk escaped to "▁" and, with
remove_extra_whitespaces, dropped after a space; trailing spaces dropped at the end. Each byte a
chunk writes maps to where the chunk began in the input; one more entry maps the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .charsmap import CharsMap

SPACE = "\u2581"
REPLACEMENT = "\ufffd".encode()
_LEAD_WIDTHS = [1] * 0x80 + [0] * 0x40 + [2] * 0x20 + [3] * 0x10 + [4] * 0x08 + [0] * 0x08


@dataclass
class SpecNormalizer:
    """A NormalizerSpec's rules (and the model's user-defined symbols, never normalized)."""

    charsmap: CharsMap | None = None
    add_dummy_prefix: bool = True
    remove_extra_whitespaces: bool = True
    escape_whitespaces: bool = True
    treat_whitespace_as_suffix: bool = False
    user_defined: frozenset[bytes] = frozenset()
    _longest_symbol: int = field(init=False, default=0)
    _rule_starts: dict[bytes, bool] = field(init=False, default_factory=dict)
    _plain_run: "re.Pattern[bytes]" = field(init=False, default=None)

    def __post_init__(self) -> None:
        self._longest_symbol = max(map(len, self.user_defined), default=0)
        self._plain_run = self._plain_pattern()

    def _plain_pattern(self) -> "re.Pattern[bytes]":
        """A run of printable ASCII chars that each stay as they are (copied at once, each byte its
        own origin): chars no rule or user symbol starts with, and chars whose rules all need a
        non-ASCII char next (NFKC's "e" + U+0301), when an ASCII char or the end follows."""
        symbol_starts = {symbol[0] for symbol in self.user_defined}
        always, before_ascii = bytearray(), bytearray()
        for byte in range(0x21, 0x7F):
            if byte in symbol_starts:
                continue
            if self.charsmap is None or not self._may_start_rule(bytes((byte,))):
                always.append(byte)
            elif not self.charsmap.prefix_matches(bytes((byte,))) and not any(
                    self._may_start_rule(bytes((byte, following))) for following in range(1, 0x80)):
                before_ascii.append(byte)
        alternatives = [b"[" + re.escape(bytes(always)) + b"]"] if always else []
        if before_ascii:
            alternatives.append(b"[" + re.escape(bytes(before_ascii)) + rb"](?=[\x00-\x7f]|\Z)")
        return re.compile(b"(?:" + b"|".join(alternatives or [rb"(?!)"]) + b")+")

    def normalize(self, text: str) -> str:
        """The normalized text."""
        return self.normalize_bytes(text.encode("utf-8"))[0].decode("utf-8")

    def normalize_bytes(self, data: bytes) -> tuple[bytes, list[int]]:
        """The normalized UTF-8 and, per byte of it plus one, the input byte it starts at."""
        if not data:
            return b"", []
        space = SPACE.encode() if self.escape_whitespaces else b" "
        out = bytearray()
        origins: list[int] = []
        consumed = 0
        if self.remove_extra_whitespaces:
            while consumed < len(data):
                chunk, width = self._prefix(data, consumed)
                if chunk != b" ":
                    break
                consumed += width
        if consumed == len(data):
            return b"", []
        if self.add_dummy_prefix and not self.treat_whitespace_as_suffix:
            out += space
            origins += [consumed] * len(space)
        previous_space = self.remove_extra_whitespaces
        plain_run = self._plain_run
        while consumed < len(data):
            run = plain_run.match(data, consumed)
            if run is not None:
                end = run.end()
                out += data[consumed:end]
                origins.extend(range(consumed, end))
                consumed, previous_space = end, False
                continue
            chunk, width = self._prefix(data, consumed)
            if previous_space:
                chunk = chunk.lstrip(b" ")
            if chunk:
                for byte in chunk:
                    if byte == 0x20:
                        out += space
                        origins += [consumed] * len(space)
                    else:
                        out.append(byte)
                        origins.append(consumed)
                previous_space = chunk.endswith(b" ")
            consumed += width
            if not self.remove_extra_whitespaces:
                previous_space = False
        if self.remove_extra_whitespaces:
            while out.endswith(space):
                cut = len(out) - len(space)
                consumed = origins[cut]
                del out[cut:], origins[cut:]
        if self.add_dummy_prefix and self.treat_whitespace_as_suffix:
            out += space
            origins += [consumed] * len(space)
        origins.append(consumed)
        return bytes(out), origins

    def _prefix(self, data: bytes, start: int) -> tuple[bytes, int]:
        """(what the chunk at `start` becomes, how many input bytes it takes)."""
        if self._longest_symbol:
            for end in range(min(len(data), start + self._longest_symbol), start, -1):
                if data[start:end] in self.user_defined:
                    return data[start:end], end - start
        lead = data[start]
        width = _LEAD_WIDTHS[lead]
        char = data[start:start + width] if width else b""
        if self.charsmap is not None and (width == 0 or self._may_start_rule(char)):
            match = self.charsmap.longest_match(data, start)
            if match is not None:
                return match[0].encode("utf-8"), match[1]
        if width == 0 or not _is_char(char, width):
            return REPLACEMENT, 1
        return char, width

    def _may_start_rule(self, char: bytes) -> bool:
        """Whether some charsmap key begins with this char (cached per char)."""
        known = self._rule_starts.get(char)
        if known is None:
            charsmap = self.charsmap
            known = self._rule_starts[char] = bool(charsmap.prefix_matches(char)) or charsmap.continues(char)
        return known


def _is_char(char: bytes, width: int) -> bool:
    """Whether `char` is one whole UTF-8 char of `width` bytes."""
    if len(char) != width:
        return False
    try:
        char.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
