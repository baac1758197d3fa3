"""MyT5's byte rewriting (byte_maps.json's "decompose_map" and "merge_map"): sequences of hex byte tokens
("e3 81 82") replaced by others, longest match first, left to right, and the same rules reversed for decode.

A rule maps its input tokens (space-separated) to output tokens. Every single byte "00" ... "ff" maps to
itself unless a rule says otherwise, so at each position the longest input that is a rule (or a lone byte)
is replaced by its output; a token that starts no rule (an added token's text in decode) passes unchanged.
The reverse rules map each output back to its input (a later rule wins when two share an output), as
transformers' ByteRewriter builds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# A trie node: the next token -> its node; OUTPUT holds the tokens a rule ending here writes.
Node = dict
OUTPUT = object()


def _trie(rules: dict[str, str]) -> Node:
    """The trie of the single bytes (each to itself) and then of every rule's input."""
    root: Node = {}
    for byte in range(256):
        token = f"{byte:02x}"
        root[token] = {OUTPUT: [token]}
    for source, target in rules.items():
        node = root
        for token in source.split(" "):
            node = node.setdefault(token, {})
        node[OUTPUT] = target.split(" ")
    return root


def matches(tokens: list[str], trie: Node) -> list[tuple[int, int, list[str]]]:
    """(start, end, output) of each replaced run: the longest rule input (or lone byte) at each position, left to
    right; a token that starts none is its own output."""
    found = []
    start = 0
    while start < len(tokens):
        node, written, end = trie, [tokens[start]], start + 1
        for index in range(start, len(tokens)):
            node = node.get(tokens[index])
            if node is None:
                break
            if OUTPUT in node:
                written, end = node[OUTPUT], index + 1
        found.append((start, end, written))
        start = end
    return found


def rewrite(tokens: list[str], trie: Node) -> list[str]:
    """The tokens with each run `matches` finds replaced by its output."""
    return [token for _, _, written in matches(tokens, trie) for token in written]


@dataclass
class ByteRewriter:
    """One map of byte_maps.json, forwards (encode) and reversed (decode)."""

    rules: dict[str, str]
    forward: Node = field(init=False, repr=False)
    backward: Node = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.forward = _trie(self.rules)
        self.backward = _trie({target: source for source, target in self.rules.items()})

    def rewrite(self, tokens: list[str]) -> list[str]:
        """The tokens rewritten by the rules."""
        return rewrite(tokens, self.forward)

    def undo(self, tokens: list[str]) -> list[str]:
        """The tokens rewritten by the reversed rules."""
        return rewrite(tokens, self.backward)
