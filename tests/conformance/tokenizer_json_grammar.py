"""Hypothesis strategies that write tokenizer.json documents from `tokenizers`' serialization grammar.

The grammar is that of tokenizers 0.23.3 (its Python stubs name every type and option; the JSON
field names are what its objects serialize to, and the legacy forms are its serde readers'):

- normalizers: BertNormalizer, Strip, StripAccents, NFC, NFD, NFKC, NFKD, Lowercase, Nmt,
  Precompiled, Replace (string or regex), Prepend, ByteLevel, Sequence (nested);
- pre-tokenizers: BertPreTokenizer, ByteLevel, CharDelimiterSplit, Digits, FixedLength, Metaspace
  (and its legacy add_prefix_space / str_rep), Punctuation, Split (string or regex, five
  behaviours, invert), UnicodeScripts, Whitespace, WhitespaceSplit, Sequence (nested);
- models: BPE (merges as pairs or legacy "a b" strings; dropout, unk_token, fuse_unk,
  continuing_subword_prefix, end_of_word_suffix, byte_fallback, ignore_merges), WordPiece,
  WordLevel, Unigram (unk_id, byte_fallback), each over a small random vocabulary;
- post-processors: BertProcessing, RobertaProcessing, ByteLevel, TemplateProcessing, Sequence;
- decoders: BPEDecoder, ByteFallback, ByteLevel, CTC, Fuse, Metaspace, Replace, Strip, WordPiece,
  Sequence (nested);
- added tokens with every flag, optional truncation and padding, optional fields left out.

`cases()` draws a `Case`: the document, texts built from its own pieces (so that the models
merge, match and fall back for real) mixed with random Unicode, and id lists to decode. The
documents are mostly valid; a few draws break one rule (a merge whose result is missing, a
template naming an undefined special token, an unk_id past the vocabulary, a two-char
replacement, a missing field, a field no type has, a component without its "type") so that
refusals and tokenizers' fallbacks are compared too. What tokenizers panics on, aborts on or
answers at random is left out by name (EMPTY_PREPEND, EMPTY_REPLACE_THEN_MORE, `merged_token`;
fuzz/README.md).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from hfcompat.normalizers.charsmap_builder import build_charsmap
from hfcompat.pipeline.bytelevel import CHAR_TO_BYTE, bytes_to_chars

# Characters the vocabularies are made of: ASCII, a space, marks SentencePiece and GPT-2 use,
# accented and CJK letters, digits, punctuation, a newline, and chars normalizers reshape.
ALPHABET = ["a", "b", "c", "d", "e", "A", "B", " ", "▁", "#", "1", "2", "é", "ü", "中", "文", "!", ".", "'", "\n", "-",
            # chars whose normalized forms change length or split: İ lowercases to two chars, ß
            # and ﬁ fold to two, Ａ and ① to one, a lone combining acute, a titlecase digraph
            "İ", "ß", "ﬁ", "Ａ", "①", "\u0301", "ǅ"]
SPACES = [" ", "  ", "\t", "\n", "\u3000", "\u00a0", "\u200b"]
PREFIXES = ["##", "@@", "▁", "_"]
SUFFIXES = ["</w>", "@", "_"]
REPLACEMENTS = ["▁", "_", " ", "#", "__"]  # "__": not one char, which tokenizers refuses
BEHAVIORS = ["Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous"]
# Patterns Oniguruma (tokenizers) and hfcompat both have to read the same way.
REGEXES = [
    " ", "a", "\\s+", "\\s", "[a-c]+", "\\p{L}+", "\\d", "\\d+", "(?i)a", "[.!]", "'s|'t|'re",
    " ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+", "\\w+|[^\\w\\s]+", "[^a]", "ab|a",
    "\\p{Han}", "(a)(b)", "\\b", "^a", "a$", "x*", "", "é|e", "[▁ ]",
    # Oniguruma syntax beyond the common core: lookbehind, possessive and lazy quantifiers, POSIX
    # brackets, \h, \R, \X, inline options (Ruby's (?m) is dotall), \A and \z, an intersection.
    "(?<=a)b", "(?<!a)b", "a++", "a+?", "[[:alpha:]]+", "[[:punct:]]", "\\p{Lu}", "\\h+", "\\R", "\\X",
    "(?m)^b", "(?i:A)b", "\\Aa", "a\\z", "[a-z&&[^b]]+", "\\s*\\S+", "(?:ab)+", "[\\u00e9\\u4e2d]",
]
STRINGS = ["a", " ", "ab", "▁", "é", "中", "  ", "##", ".", "abc", ""]
CHARSMAP_RULES = {"a": "b", "ab": "x", "é": "e", "Ａ": "A", "中": "", "!": "!!", " ": "▁", "ü": "u\u0308",
                  "bc": "cb", "\u3000": " "}


@dataclass
class Case:
    """One tokenizer.json document and texts to run through it."""

    document: dict[str, Any]
    texts: list[str]
    ids: list[list[int]] = field(default_factory=list)  # decoded as they are (any id, unknown ones too)


def byte_level(text: str) -> str:
    """A text's UTF-8 bytes as GPT-2's byte-level chars."""
    return bytes_to_chars(text.encode("utf-8"))


# ------------------------------------------------------------------ small shared pieces

booleans = st.booleans()
pieces = st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=3).map("".join)


def _pattern() -> st.SearchStrategy[dict[str, str]]:
    """A Replace/Split pattern: {"String": ...} or {"Regex": ...}."""
    return st.one_of(st.sampled_from(STRINGS).map(lambda s: {"String": s}),
                     st.sampled_from(REGEXES).map(lambda r: {"Regex": r}))


def _optional(draw: st.DrawFn, data: dict[str, Any], *names: str) -> dict[str, Any]:
    """Leave out some of the named fields (tokenizers has a default for each)."""
    for name in names:
        if name in data and draw(st.integers(0, 7)) == 0:
            del data[name]
    return data


# ------------------------------------------------------------------ normalizers


@st.composite
def _leaf_normalizer(draw: st.DrawFn) -> dict[str, Any]:
    """One normalizer other than Sequence, with random options."""
    kind = draw(st.sampled_from(["BertNormalizer", "Strip", "StripAccents", "NFC", "NFD", "NFKC", "NFKD",
                                 "Lowercase", "Nmt", "Precompiled", "Replace", "Prepend", "ByteLevel"]))
    if kind == "BertNormalizer":
        return _optional(draw, {"type": kind, "clean_text": draw(booleans), "handle_chinese_chars": draw(booleans),
                                "strip_accents": draw(st.sampled_from([None, True, False])),
                                "lowercase": draw(booleans)},
                         "clean_text", "handle_chinese_chars", "strip_accents", "lowercase")
    if kind == "Strip":
        return {"type": kind, "strip_left": draw(booleans), "strip_right": draw(booleans)}
    if kind == "Precompiled":
        fewest = 0 if draw(st.integers(0, 5)) == 0 else 1  # an empty charsmap: tokenizers refuses it
        keys = draw(st.lists(st.sampled_from(sorted(CHARSMAP_RULES)), unique=True, min_size=fewest, max_size=6))
        blob = build_charsmap({key: CHARSMAP_RULES[key] for key in keys})
        return {"type": kind, "precompiled_charsmap": base64.b64encode(blob).decode("ascii")}
    if kind == "Replace":
        return {"type": kind, "pattern": draw(_pattern()), "content": draw(st.sampled_from(STRINGS))}
    if kind == "Prepend":
        # Not "": EMPTY_PREPEND (fuzz/README.md). Prepend("") marks the first char as inserted and
        # leaves tokenizers' alignments one entry short: the next normalizer panics ("index out of
        # bounds"), and ByteLevel's prefix space doubles the first char's tokens.
        return {"type": kind, "prepend": draw(st.sampled_from(["▁", " ", "ab"]))}
    return {"type": kind}


normalizer = st.recursive(
    _leaf_normalizer(),
    lambda inner: st.lists(inner, max_size=3).map(lambda items: {"type": "Sequence", "normalizers": items}),
    max_leaves=5,
)


# ------------------------------------------------------------------ pre-tokenizers


def _byte_level_options(draw: st.DrawFn, kind: str = "ByteLevel") -> dict[str, Any]:
    """ByteLevel's three flags (use_regex may be left out: it defaults to true)."""
    return _optional(draw, {"type": kind, "add_prefix_space": draw(booleans), "trim_offsets": draw(booleans),
                            "use_regex": draw(booleans)}, "use_regex")


def _metaspace(draw: st.DrawFn) -> dict[str, Any]:
    """Metaspace (pre-tokenizer and decoder alike), now and then in a legacy form."""
    data: dict[str, Any] = {"type": "Metaspace", "replacement": draw(st.sampled_from(REPLACEMENTS)),
                            "prepend_scheme": draw(st.sampled_from(["always", "never", "first"])),
                            "split": draw(booleans)}
    legacy = draw(st.integers(0, 5))
    if legacy == 0:
        data["add_prefix_space"] = draw(booleans)
    elif legacy == 1:
        data["str_rep"] = data["replacement"]
    return _optional(draw, data, "prepend_scheme", "split")


@st.composite
def _leaf_pre_tokenizer(draw: st.DrawFn) -> dict[str, Any]:
    """One pre-tokenizer other than Sequence, with random options."""
    kind = draw(st.sampled_from(["BertPreTokenizer", "ByteLevel", "CharDelimiterSplit", "Digits", "FixedLength",
                                 "Metaspace", "Punctuation", "Split", "UnicodeScripts", "Whitespace",
                                 "WhitespaceSplit"]))
    if kind == "ByteLevel":
        return _byte_level_options(draw)
    if kind == "CharDelimiterSplit":
        return {"type": kind, "delimiter": draw(st.sampled_from([" ", "a", "▁", "-", "中", "ab"]))}
    if kind == "Digits":
        return {"type": kind, "individual_digits": draw(booleans)}
    if kind == "FixedLength":
        return _optional(draw, {"type": kind, "length": draw(st.integers(1, 6))}, "length")
    if kind == "Metaspace":
        return _metaspace(draw)
    if kind == "Punctuation":
        return _optional(draw, {"type": kind, "behavior": draw(st.sampled_from(BEHAVIORS))}, "behavior")
    if kind == "Split":
        return {"type": kind, "pattern": draw(_pattern()), "behavior": draw(st.sampled_from(BEHAVIORS)),
                "invert": draw(booleans)}
    return {"type": kind}


pre_tokenizer = st.recursive(
    _leaf_pre_tokenizer(),
    lambda inner: st.lists(inner, max_size=3).map(lambda items: {"type": "Sequence", "pretokenizers": items}),
    max_leaves=4,
)


# ------------------------------------------------------------------ decoders


@st.composite
def _leaf_decoder(draw: st.DrawFn) -> dict[str, Any]:
    """One decoder other than Sequence, with random options."""
    kind = draw(st.sampled_from(["BPEDecoder", "ByteFallback", "ByteLevel", "CTC", "Fuse", "Metaspace", "Replace",
                                 "Strip", "WordPiece"]))
    if kind == "BPEDecoder":
        return _optional(draw, {"type": kind, "suffix": draw(st.sampled_from(SUFFIXES))}, "suffix")
    if kind == "ByteLevel":
        return _byte_level_options(draw)
    if kind == "CTC":
        return _optional(draw, {"type": kind, "pad_token": draw(st.sampled_from(["<pad>", "a", "▁"])),
                                "word_delimiter_token": draw(st.sampled_from(["|", "▁", " "])),
                                "cleanup": draw(booleans)}, "pad_token", "word_delimiter_token", "cleanup")
    if kind == "Metaspace":
        return _metaspace(draw)
    if kind == "Replace":
        return {"type": kind, "pattern": draw(_pattern()), "content": draw(st.sampled_from(STRINGS))}
    if kind == "Strip":
        return {"type": kind, "content": draw(st.sampled_from([" ", "▁", "a", "ab"])), "start": draw(st.integers(0, 2)),
                "stop": draw(st.integers(0, 2))}
    if kind == "WordPiece":
        return _optional(draw, {"type": kind, "prefix": draw(st.sampled_from(PREFIXES)), "cleanup": draw(booleans)},
                         "prefix", "cleanup")
    return {"type": kind}


decoder = st.recursive(
    _leaf_decoder(),
    lambda inner: st.lists(inner, max_size=3).map(lambda items: {"type": "Sequence", "decoders": items}),
    max_leaves=4,
)


# ------------------------------------------------------------------ models


def _ids(draw: st.DrawFn, tokens: list[str]) -> dict[str, int]:
    """A vocab: ids 0..n-1, in order or shuffled."""
    order = draw(st.permutations(range(len(tokens)))) if draw(booleans) else list(range(len(tokens)))
    return dict(zip(tokens, order))


def _base_chars(draw: st.DrawFn, byte_level_chars: bool) -> list[str]:
    """The single-char tokens: a subset of the alphabet, as GPT-2's byte chars when ByteLevel runs."""
    chars = draw(st.lists(st.sampled_from(ALPHABET), min_size=1, max_size=len(ALPHABET), unique=True))
    if byte_level_chars:
        return sorted({c for char in chars for c in byte_level(char)})
    return chars


def _byte_tokens(draw: st.DrawFn) -> list[str]:
    """Some <0xXX> byte-fallback tokens: the bytes of a few alphabet chars."""
    chars = draw(st.lists(st.sampled_from(ALPHABET), max_size=6, unique=True))
    return sorted({f"<0x{b:02X}>" for char in chars for b in char.encode("utf-8")})


def merged_token(left: str, right: str, prefix: str | None) -> str | None:
    """The token a merge makes as tokenizers builds it: `right` loses the prefix's byte length,
    whether it starts with the prefix or not.

    None (the merge is left out) where that cut does not land on a char boundary of `right`:
    tokenizers then panics on load (`right` shorter than the prefix: a slice index out of range)
    or aborts the process (a cut inside a char: invalid UTF-8 in its error message), a known
    owner crash on which hfcompat refuses the document (test_prefix_cut_inside_a_char).
    """
    cut = len(prefix.encode("utf-8")) if prefix else 0
    tail = right.encode("utf-8")[cut:]
    if len(right.encode("utf-8")) < cut:
        return None
    try:
        return left + tail.decode("utf-8")
    except UnicodeDecodeError:
        return None


@st.composite
def bpe_model(draw: st.DrawFn, byte_level_chars: bool = False) -> dict[str, Any]:
    """A BPE model whose merges join tokens it already has (now and then one that breaks a rule)."""
    prefix = draw(st.sampled_from([None, None, *PREFIXES]))
    suffix = draw(st.sampled_from([None, None, *SUFFIXES]))
    tokens = _base_chars(draw, byte_level_chars)
    if prefix:
        tokens += [prefix + t for t in draw(st.lists(st.sampled_from(tokens), unique=True))]
    if suffix:
        tokens += [t + suffix for t in draw(st.lists(st.sampled_from(tokens), unique=True))]
    byte_fallback = draw(booleans)
    if byte_fallback:
        tokens += [t for t in _byte_tokens(draw) if t not in tokens]
    merges: list[list[str]] = []
    missing = draw(st.integers(-30, 12))  # the merge whose result is left out of the vocab, if any
    for index in range(draw(st.integers(0, 30))):
        left, right = draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens))
        joined = merged_token(left, right, prefix)
        if joined is None or [left, right] in merges:
            continue
        merges.append([left, right])
        if joined not in tokens and index != missing:
            tokens.append(joined)
    unk = draw(st.sampled_from([None, "<unk>", tokens[0]]))
    if unk == "<unk>" and draw(booleans):
        tokens.append(unk)
    if any(" " in part for pair in merges for part in pair) or draw(booleans):
        merge_list: list[Any] = merges
    else:
        merge_list = [f"{a} {b}" for a, b in merges]
    data = {"type": "BPE", "dropout": draw(st.sampled_from([None, None, 0.0, 1.0])), "unk_token": unk,
            "continuing_subword_prefix": prefix, "end_of_word_suffix": suffix, "fuse_unk": draw(booleans),
            "byte_fallback": byte_fallback, "ignore_merges": draw(booleans), "vocab": _ids(draw, tokens),
            "merges": merge_list}
    return _optional(draw, data, "dropout", "unk_token", "continuing_subword_prefix", "end_of_word_suffix",
                     "fuse_unk", "byte_fallback", "ignore_merges")


@st.composite
def wordpiece_model(draw: st.DrawFn, byte_level_chars: bool = False) -> dict[str, Any]:
    """A WordPiece model over whole pieces and prefixed continuations."""
    prefix = draw(st.sampled_from(["##", "##", *PREFIXES, ""]))
    words = draw(st.lists(pieces, min_size=1, max_size=12, unique=True))
    if byte_level_chars:
        words = sorted({byte_level(w) for w in words})
    tokens = words + [prefix + w for w in draw(st.lists(st.sampled_from(words), unique=True)) if prefix + w not in words]
    unk = draw(st.sampled_from(["[UNK]", words[0]]))
    if unk not in tokens and draw(st.integers(0, 5)) > 0:
        tokens.append(unk)
    data = {"type": "WordPiece", "unk_token": unk, "continuing_subword_prefix": prefix,
            "max_input_chars_per_word": draw(st.integers(1, 12)), "vocab": _ids(draw, tokens)}
    return _optional(draw, data, "unk_token", "continuing_subword_prefix", "max_input_chars_per_word")


@st.composite
def wordlevel_model(draw: st.DrawFn, byte_level_chars: bool = False) -> dict[str, Any]:
    """A WordLevel model over whole pieces; its unk token in the vocabulary or not."""
    words = draw(st.lists(pieces, min_size=1, max_size=12, unique=True))
    if byte_level_chars:
        words = sorted({byte_level(w) for w in words})
    unk = draw(st.sampled_from(["<unk>", words[0]]))
    if unk not in words and draw(st.integers(0, 5)) > 0:
        words.append(unk)
    return _optional(draw, {"type": "WordLevel", "vocab": _ids(draw, words), "unk_token": unk}, "unk_token")


@st.composite
def unigram_model(draw: st.DrawFn, byte_level_chars: bool = False) -> dict[str, Any]:
    """A Unigram model: pieces with negative scores, an unk piece or none, byte fallback or not."""
    words = draw(st.lists(pieces, min_size=1, max_size=14, unique=True))
    if byte_level_chars:
        words = list(dict.fromkeys(byte_level(w) for w in words))
    byte_fallback = draw(booleans)
    if byte_fallback:
        words += [t for t in _byte_tokens(draw) if t not in words]
    scores = st.floats(-20.0, 0.0, allow_nan=False).map(lambda x: round(x, 3))
    vocab = [[w, draw(scores)] for w in words]
    unk_id = draw(st.sampled_from([None, 0, len(vocab) - 1, len(vocab)]))
    if unk_id == 0 and draw(booleans):
        vocab.insert(0, ["<unk>", 0.0])
    data = {"type": "Unigram", "unk_id": unk_id, "vocab": vocab, "byte_fallback": byte_fallback}
    return _optional(draw, data, "unk_id", "byte_fallback")


MODELS = {"BPE": bpe_model, "WordPiece": wordpiece_model, "WordLevel": wordlevel_model, "Unigram": unigram_model}


def model_tokens(model: dict[str, Any]) -> list[str]:
    """The model's vocabulary in id order (Unigram) or vocab order."""
    vocab = model["vocab"]
    return [entry[0] for entry in vocab] if isinstance(vocab, list) else list(vocab)


# ------------------------------------------------------------------ post-processors


def _special(draw: st.DrawFn, names: list[str], size: int) -> list[Any]:
    """A (token, id) pair: one of the given names with an id below `size` (or a new one)."""
    return [draw(st.sampled_from(names)), draw(st.integers(0, size))]


@st.composite
def _template(draw: st.DrawFn, names: list[str], size: int) -> dict[str, Any]:
    """TemplateProcessing: a single and a pair layout over $A, $B and special tokens."""
    used = draw(st.lists(st.sampled_from(names), min_size=0, max_size=3, unique=True))

    def layout(sequences: list[str]) -> list[dict[str, Any]]:
        items = [{"Sequence": {"id": s, "type_id": draw(st.integers(0, 2))}} for s in sequences]
        for _ in range(draw(st.integers(0, 3))):
            if used:
                special = {"SpecialToken": {"id": draw(st.sampled_from(used)), "type_id": draw(st.integers(0, 2))}}
                items.insert(draw(st.integers(0, len(items))), special)
        return items

    defined = used if draw(st.integers(0, 10)) > 0 else used[1:]
    special_tokens = {}
    for name in defined:
        count = draw(st.integers(1, 2))
        ids = [draw(st.integers(0, size)) for _ in range(count)]
        tokens = [name] + [draw(st.sampled_from(names)) for _ in range(count - 1)]
        if draw(st.integers(0, 15)) == 0:
            tokens = tokens[1:] if len(tokens) > 1 else tokens * 2  # ids and tokens of unequal length
        special_tokens[name] = {"id": name, "ids": ids, "tokens": tokens}
    # tokenizers' reader checks no layout (its builder would): $B or two $A in the single one load.
    single = draw(st.sampled_from([["A"]] * 8 + [["B"], ["A", "A"], []]))
    return {"type": "TemplateProcessing", "single": layout(single), "pair": layout(draw(st.sampled_from(
        [["A", "B"], ["A", "B"], ["B", "A"], ["A"], ["B", "B"]]))), "special_tokens": special_tokens}


@st.composite
def _leaf_post_processor(draw: st.DrawFn, names: list[str], size: int) -> dict[str, Any]:
    """One post-processor other than Sequence."""
    kind = draw(st.sampled_from(["BertProcessing", "RobertaProcessing", "ByteLevel", "TemplateProcessing"]))
    if kind == "BertProcessing":
        return {"type": kind, "sep": _special(draw, names, size), "cls": _special(draw, names, size)}
    if kind == "RobertaProcessing":
        return _optional(draw, {"type": kind, "sep": _special(draw, names, size), "cls": _special(draw, names, size),
                                "trim_offsets": draw(booleans), "add_prefix_space": draw(booleans)},
                         "trim_offsets", "add_prefix_space")
    if kind == "ByteLevel":
        return _byte_level_options(draw)
    return draw(_template(names, size))


def post_processor(names: list[str], size: int) -> st.SearchStrategy[dict[str, Any]]:
    """A post-processor, or a Sequence of them, naming special tokens among `names`."""
    leaf = _leaf_post_processor(names, size)
    return st.one_of(leaf, st.lists(leaf, max_size=3).map(lambda items: {"type": "Sequence", "processors": items}))


# ------------------------------------------------------------------ added tokens, truncation, padding


@st.composite
def added_tokens(draw: st.DrawFn, tokens: list[str], size: int) -> list[dict[str, Any]]:
    """Added tokens: model tokens or new strings, every flag random, ids as tokenizers writes them
    (the model's id, else the next free one), now and then another id."""
    contents = draw(st.lists(st.one_of(st.sampled_from(tokens), st.sampled_from(
        ["<s>", "</s>", "[CLS]", "[SEP]", "<pad>", "<mask>", "ab", " x", "é ", "中文", "\n", "a b", "##", "▁a"])),
        max_size=5, unique=True))
    vocab = {token: i for i, token in enumerate(tokens)}
    entries, next_id = [], size
    for content in contents:
        token_id = vocab.get(content)
        if token_id is None:
            token_id, next_id = next_id, next_id + 1
        if draw(st.integers(0, 10)) == 0:
            token_id = draw(st.integers(0, size + 5))
        entries.append({"id": token_id, "content": content, "single_word": draw(booleans), "lstrip": draw(booleans),
                        "rstrip": draw(booleans), "normalized": draw(booleans), "special": draw(booleans)})
    return entries


@st.composite
def truncation(draw: st.DrawFn) -> dict[str, Any] | None:
    """Truncation params, or none."""
    if draw(booleans):
        return None
    max_length = draw(st.integers(0, 12))
    return {"direction": draw(st.sampled_from(["Left", "Right"])), "max_length": max_length,
            "strategy": draw(st.sampled_from(["LongestFirst", "OnlyFirst", "OnlySecond"])),
            "stride": draw(st.integers(0, max(0, max_length - 1)))}


@st.composite
def padding(draw: st.DrawFn, names: list[str], size: int) -> dict[str, Any] | None:
    """Padding params, or none."""
    if draw(booleans):
        return None
    strategy: Any = "BatchLongest" if draw(booleans) else {"Fixed": draw(st.integers(0, 16))}
    return {"strategy": strategy, "direction": draw(st.sampled_from(["Left", "Right"])),
            "pad_to_multiple_of": draw(st.sampled_from([None, 1, 3, 8])), "pad_id": draw(st.integers(0, size)),
            "pad_type_id": draw(st.integers(0, 2)), "pad_token": draw(st.sampled_from(names))}


# ------------------------------------------------------------------ documents and texts


def _uses_byte_level(component: Any) -> bool:
    """Whether a component (or one nested in it) is ByteLevel."""
    if isinstance(component, dict):
        return component.get("type") == "ByteLevel" or any(_uses_byte_level(v) for v in component.values())
    if isinstance(component, list):
        return any(_uses_byte_level(v) for v in component)
    return False


def _leaves(component: Any) -> list[dict[str, Any]]:
    """The components of a (possibly nested) Sequence, in the order they run."""
    if component is None:
        return []
    inner = component.get("normalizers", component.get("pretokenizers", component.get("decoders")))
    return [component] if inner is None else [leaf for item in inner for leaf in _leaves(item)]


# Regexes of REGEXES that match the empty string.
EMPTY_MATCHING = frozenset(["", "x*", "\\b"])


def _replaces_empty_matches(leaf: dict[str, Any]) -> bool:
    """Whether a normalizer is a Replace whose pattern matches the empty string."""
    pattern = leaf.get("pattern", {}) if leaf["type"] == "Replace" else {}
    return pattern.get("String") == "" or pattern.get("Regex") in EMPTY_MATCHING


def without_owner_panics(doc_normalizer: Any) -> Any:
    """The normalizer with EMPTY_REPLACE_THEN_MORE left out (fuzz/README.md): a Replace whose
    pattern matches the empty string leaves tokenizers' alignments short of the text, and the next
    normalizer indexes past them ("index out of bounds", on every non-empty text, and on load when
    a normalized added token exists). Such a Replace, when another normalizer follows it, gets a
    pattern that matches something."""
    leaves = _leaves(doc_normalizer)
    for leaf in leaves[:-1]:
        if _replaces_empty_matches(leaf):
            leaf["pattern"] = {"String": " "}
    return doc_normalizer


def _add_unknown_fields(draw: st.DrawFn, component: Any) -> None:
    """Now and then give a component (or one nested in it) a field no type has (serde skips
    unknown fields, so tokenizers loads the component as if it were not there), or take its
    "type" away."""
    if isinstance(component, list):
        for item in component:
            _add_unknown_fields(draw, item)
    elif isinstance(component, dict):
        for value in component.values():
            _add_unknown_fields(draw, value)
        if "type" in component and draw(st.integers(0, 20)) == 0:
            component["comment"] = draw(st.sampled_from([None, 1, "x", [], {}]))
        if "type" in component and draw(st.integers(0, 20)) == 0:
            del component["type"]  # tokenizers then tries the types its fields fit, in its order


def _maybe(draw: st.DrawFn, strategy: st.SearchStrategy[Any]) -> Any:
    """A drawn component, or None (null in the file) one time in three."""
    return None if draw(st.integers(0, 2)) == 0 else draw(strategy)


def _surface(token: str, model: dict[str, Any]) -> str:
    """What a model token looks like in text: affixes and the metaspace char dropped, GPT-2's byte
    chars turned back into text where they spell UTF-8."""
    prefix = model.get("continuing_subword_prefix") or ""
    if prefix and token.startswith(prefix):
        token = token[len(prefix):]
    suffix = model.get("end_of_word_suffix") or ""
    if suffix and token.endswith(suffix):
        token = token[: -len(suffix)]
    if token and all(c in CHAR_TO_BYTE for c in token):
        decoded = bytes(CHAR_TO_BYTE[c] for c in token).decode("utf-8", errors="ignore")
        if decoded and any(c not in ALPHABET for c in token):
            token = decoded
    return token.replace("▁", " ")


@st.composite
def texts_for(draw: st.DrawFn, words: list[str], count: int = 4) -> list[str]:
    """Texts made of the document's own words, alphabet chars, spaces and random Unicode."""
    part = st.one_of(st.sampled_from(words), st.sampled_from(words), st.sampled_from(ALPHABET),
                     st.sampled_from(SPACES), st.text(st.characters(exclude_categories=("Cs",)), max_size=3))
    built = st.lists(part, max_size=10).map("".join)
    random_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=20)
    return draw(st.lists(st.one_of(built, built, built, random_text), min_size=count, max_size=count))


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A whole tokenizer.json document and texts for it."""
    doc_normalizer = without_owner_panics(_maybe(draw, normalizer))
    doc_pre_tokenizer = _maybe(draw, pre_tokenizer)
    byte_level_chars = _uses_byte_level([doc_normalizer, doc_pre_tokenizer])
    model = draw(st.sampled_from(sorted(MODELS)).flatmap(lambda kind: MODELS[kind](byte_level_chars)))
    tokens = model_tokens(model)
    size = len(tokens)
    added = draw(added_tokens(tokens, size))
    names = list(dict.fromkeys([*tokens[:4], *(entry["content"] for entry in added), "[CLS]", "</s>"]))
    document = {
        "version": "1.0",
        "truncation": draw(truncation()),
        "padding": draw(padding(names, size + len(added))),
        "added_tokens": added,
        "normalizer": doc_normalizer,
        "pre_tokenizer": doc_pre_tokenizer,
        "post_processor": _maybe(draw, post_processor(names, size + len(added))),
        "decoder": _maybe(draw, decoder),
        "model": model,
    }
    for name in ("normalizer", "pre_tokenizer", "post_processor", "decoder", "model"):
        _add_unknown_fields(draw, document[name])
    for name in ("truncation", "padding", "normalizer", "pre_tokenizer", "post_processor", "decoder"):
        if document[name] is None and draw(st.integers(0, 3)) == 0:
            del document[name]
    words = list(dict.fromkeys([_surface(t, model) for t in tokens] + [entry["content"] for entry in added]))
    ids = st.lists(st.integers(0, size + len(added) + 1), max_size=8)
    return Case(document, draw(texts_for([w for w in words if w] or ALPHABET)), draw(st.lists(ids, max_size=2)))
