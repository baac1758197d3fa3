"""transformers' classes that tokenize by characters or by whole vocabulary entries, from files of their own.

Wav2Vec2CTCTokenizer (vocab.json of characters: spaces become the word delimiter "|", do_lower_case upper-cases the
text, CTC decode), Wav2Vec2PhonemeCTCTokenizer (vocab.json of phonemes, the text split at spaces when it does not
phonemize, CTC decode), MgpstrTokenizer (vocab.json of characters, tokens joined with spaces in decode),
VitsTokenizer (vocab.json of characters: the text prepared as a whole, a blank token around each character),
EsmTokenizer (vocab.txt: every entry is found in the text first, the rest is split on whitespace) and EsmcTokenizer
(its fixed protein vocabulary, whatever the directory holds). Each builder returns the tokenizer.json dict of the
pipeline the class runs, and may add an "after_load" step the loader calls on the built tokenizer; where
tokenizer.json cannot hold a part (Python's upper-casing, the CTC decodes, VITS's preparation and blanks) it is
hfcompat's own object and saving refuses it. transformers' Python classes find their added tokens before anything
else (a trie), which is what hfcompat's added tokens do. Where transformers calls a package hfcompat does not use
(phonemizer, uroman), the builder warns.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, Callable

from ...decoders.blank_characters import BlankCharacters as BlankCharacterDecoder
from ...decoders.ctc_text import CTCText
from ...errors import FormatError
from ...models.blank_characters import BlankCharacters
from ...models.vocab_files import read_vocab_json
from ...normalizers import Sequence as NormalizerSequence
from ...normalizers.python_upper import PythonUpper
from ...normalizers.replace import Replace
from ...normalizers.vits_text import VitsText
from ...pipeline.added_vocabulary import AddedToken
from .classes import DEFAULT_ROLES, role, template, token_text

Config = dict[str, Any]
Data = dict[str, Any]

# Each character of a pre-token its own piece (list(text) in transformers).
EACH_CHARACTER = {"type": "Split", "pattern": {"Regex": r"[\s\S]"}, "behavior": "Isolated", "invert": False}
# The characters Python's str.split() splits at (str.isspace), runs of them removed (the characters themselves in
# the pattern: tokenizers' Oniguruma reads no \u escapes).
PYTHON_SPACE_CLASS = "[\t-\r\x1c- \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
# ... but the space.
OTHER_PYTHON_WHITESPACE = "[\t-\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
PYTHON_WHITESPACE = {"type": "Split", "behavior": "Removed", "invert": False,
                     "pattern": {"Regex": f"{PYTHON_SPACE_CLASS}+"}}
# No special tokens around a sequence; a pair's second sequence has type id 1.
NOTHING_ADDED = {"type": "TemplateProcessing", "single": [{"Sequence": {"id": "A", "type_id": 0}}],
                 "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
                 "special_tokens": {}}


def _class_roles(name: str, config: Config) -> dict[str, str]:
    """The class's role tokens (config's, else its defaults) by role name; a null role is left out."""
    found = {key: role(config, key, default) for key, default in DEFAULT_ROLES[name].items()}
    return {key: token for key, token in found.items() if token}


def _extra_specials(config: Config) -> set[str]:
    """The config's additional/extra special tokens."""
    found: set[str] = set()
    for key in ("additional_special_tokens", "extra_special_tokens"):
        value = config.get(key) or []
        found |= {t for t in map(token_text, value.values() if isinstance(value, dict) else value) if t}
    return found


def _clean_up(config: Config) -> bool:
    """The config's clean_up_tokenization_spaces: transformers' decode then removes spaces before punctuation."""
    return bool(config.get("clean_up_tokenization_spaces", False))


def _added(token: str, token_id: int, special: bool, strip: bool = False) -> Data:
    """An added_tokens entry, matched on the raw text."""
    return {"id": token_id, "content": token, "single_word": False, "lstrip": strip, "rstrip": strip,
            "normalized": False, "special": special}


def _read_json_object(path: Path) -> dict[str, Any]:
    """A JSON object file, its absence or damage a FormatError naming it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FormatError("missing: the class reads this file", path=str(path)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FormatError(f"not valid JSON: {error}", path=str(path)) from None
    if not isinstance(data, dict):
        raise FormatError("expected a JSON object", path=str(path))
    return data


def _character_vocab(path: Path, config: Config) -> dict[str, int]:
    """Wav2Vec2's vocab.json (token -> id), or its entry for the config's target_lang when it nests languages."""
    data = _read_json_object(path)
    language = config.get("target_lang")
    if language is not None:
        if not isinstance(data.get(language), dict):
            raise FormatError(f"no vocabulary for target_lang {language!r}", path=str(path), field=str(language))
        data = data[language]
    vocab = {token: value for token, value in data.items() if isinstance(value, int) and not isinstance(value, bool)}
    if len(vocab) != len(data):
        raise FormatError("expected token -> integer id entries (a nested vocabulary needs target_lang)",
                          path=str(path))
    return vocab


# The word delimiter Wav2Vec2CTCTokenizer encodes and decodes with: transformers 5.24 hands a config's
# word_delimiter_token to its special-token map, not to the constructor, which keeps its default.
WORD_DELIMITER = "|"


def _wav2vec2_finish(named_delimiter: str | None) -> Callable[[Any], None]:
    """After loading: the config's word delimiter is one more special token (added after the roles when the
    vocabulary lacks it), and decode never skips WORD_DELIMITER, special or not."""
    def finish(tokenizer: Any) -> None:
        if named_delimiter and tokenizer.token_to_id(named_delimiter) is None:
            tokenizer.add_special_tokens([AddedToken(named_delimiter, normalized=False, special=True)])
        tokenizer.added_vocabulary.special_tokens.discard(WORD_DELIMITER)
    return finish


def wav2vec2_ctc(directory: Path, config: Config) -> Data:
    """Wav2Vec2CTCTokenizer: each character its vocab.json id (else the unk's), spaces as the word delimiter "|",
    the text upper-cased first with do_lower_case; vocabulary entries longer than a character are found in the
    text first, taking the spaces around them; the config's word_delimiter_token is only a special token (see
    WORD_DELIMITER); nothing added around a sequence (type id 1 for a pair's second); decode collapses repeats,
    drops the pad token and turns "|" into replace_word_delimiter_char (decoders/ctc_text.py), with
    transformers' defaults for its options (group_tokens, no spaces between special tokens, no offsets)."""
    vocab = _character_vocab(directory / "vocab.json", config)
    roles = _class_roles("Wav2Vec2CTCTokenizer", config)
    named = role(config, "word_delimiter_token", WORD_DELIMITER)
    lowercase = bool(config.get("do_lower_case", False))
    to_delimiter = Replace(" ", WORD_DELIMITER)
    multi = [_added(token, token_id, token in roles.values() or token == named, strip=True)
             for token, token_id in vocab.items() if len(token) > 1]
    single = [_added(named, vocab[named], True)] if named in vocab and len(named) == 1 else []
    return {"model": {"type": "WordLevel", "vocab": vocab, "unk_token": roles.get("unk_token")},
            "normalizer": NormalizerSequence([PythonUpper(), to_delimiter]) if lowercase else to_delimiter,
            "pre_tokenizer": EACH_CHARACTER, "post_processor": NOTHING_ADDED,
            "decoder": CTCText(roles.get("pad_token"), WORD_DELIMITER,
                               str(config.get("replace_word_delimiter_char", " ")), lowercase,
                               clean_up=_clean_up(config)),
            "added_tokens": multi + single, "after_load": _wav2vec2_finish(named)}


def wav2vec2_phoneme(directory: Path, config: Config) -> Data:
    """Wav2Vec2PhonemeCTCTokenizer with do_phonemize false (text already in phonemes): each piece of text between
    its special tokens stripped (str.strip) and split at single spaces, pieces of whitespace alone dropped, each
    piece its vocab.json id (else the unk's); nothing added around a sequence (type id 1 for a pair's second);
    decode collapses repeats, drops the pad and the word delimiter (the config's, none by default) and joins
    with spaces. transformers phonemizes with do_phonemize (on by default): hfcompat does not and warns."""
    vocab = _character_vocab(directory / "vocab.json", {})
    roles = _class_roles("Wav2Vec2PhonemeCTCTokenizer", config)
    if config.get("do_phonemize", True):
        warnings.warn(f"{directory}: transformers' Wav2Vec2PhonemeCTCTokenizer phonemizes the text with the "
                      "phonemizer package (do_phonemize; without it AutoTokenizer refuses to encode); hfcompat "
                      "encodes the text as phonemes already", UserWarning, stacklevel=5)
    ends = f"\\A{PYTHON_SPACE_CLASS}+|{PYTHON_SPACE_CLASS}+\\z"  # Oniguruma's ^ and $ match at every line
    return {"model": {"type": "WordLevel", "vocab": vocab, "unk_token": roles.get("unk_token")},
            "normalizer": {"type": "Replace", "pattern": {"Regex": ends}, "content": ""},
            "pre_tokenizer": {"type": "Split", "pattern": {"Regex": f" (?:{OTHER_PYTHON_WHITESPACE}* )*"},
                              "behavior": "Removed", "invert": False},
            "post_processor": NOTHING_ADDED,
            "decoder": CTCText(roles.get("pad_token"), token_text(config.get("word_delimiter_token")), None,
                               separator=" ", clean_up=_clean_up(config)),
            "added_tokens": []}


def mgpstr(directory: Path, config: Config) -> Data:
    """MgpstrTokenizer: each character its vocab.json id (else the unk's, "[GO]"), nothing added around a sequence,
    decode joins the tokens with spaces."""
    vocab = read_vocab_json(directory / "vocab.json")
    roles = _class_roles("MgpstrTokenizer", config)
    return {"model": {"type": "WordLevel", "vocab": vocab, "unk_token": roles.get("unk_token")},
            "pre_tokenizer": EACH_CHARACTER, "post_processor": NOTHING_ADDED, "added_tokens": []}


def vits(directory: Path, config: Config) -> Data:
    """VitsTokenizer: the whole text prepared first (normalizers/vits_text.py: with normalize, vocabulary entries
    kept and the rest lowercased, then only vocabulary characters kept and the text stripped unless it phonemizes),
    its special tokens found in the prepared text, each character its id with a blank (id 0) around it
    (add_blank, models/blank_characters.py); nothing added around a sequence; decode keeps every second token.
    transformers phonemizes with espeak (phonemize, on by default) and romanizes non-ASCII text with uroman
    (is_uroman): hfcompat does neither and warns."""
    vocab = read_vocab_json(directory / "vocab.json")
    roles = _class_roles("VitsTokenizer", config)
    add_blank = bool(config.get("add_blank", True))
    _warn_vits_packages(directory, config)
    return {"model": BlankCharacters(vocab, vocab.get(roles.get("unk_token", "")), add_blank),
            "decoder": BlankCharacterDecoder(add_blank, _clean_up(config)),
            "post_processor": NOTHING_ADDED,
            "added_tokens": [_added(token, vocab[token], True) for token in roles.values() if token in vocab],
            "after_load": partial(_vits_finish, vocab, roles.get("unk_token"), config)}


def _vits_finish(vocab: dict[str, int], unk: str | None, config: Config, tokenizer: Any) -> None:
    """After loading: VITS prepares the whole text before finding any special token, so every added token is
    matched as it is on the prepared text; the preparation knows the vocabulary and the added tokens (in id
    order); the unknown id may be an added token's."""
    added = tokenizer.added_vocabulary
    added.id_to_added = {token_id: replace(token, normalized=True) for token_id, token in added.id_to_added.items()}
    normalize = bool(config.get("normalize", True))
    words = tuple(vocab) + tuple(token.content for _, token in added.sorted_entries())
    kept = frozenset(vocab) if normalize and not config.get("phonemize", True) else None
    tokenizer.normalizer = VitsText(words if normalize else None, config.get("language") == "ron", kept)
    added.refresh_normalized(None)
    tokenizer.model.unk_id = tokenizer.token_to_id(unk) if unk else None


def _warn_vits_packages(directory: Path, config: Config) -> None:
    """Say what transformers' VitsTokenizer does with packages hfcompat does not use."""
    if config.get("phonemize", True):
        warnings.warn(f"{directory}: transformers' VitsTokenizer phonemizes the text with espeak (the phonemizer "
                      "package; without it AutoTokenizer refuses to encode); hfcompat encodes the text as it is",
                      UserWarning, stacklevel=5)
    if config.get("is_uroman", False):
        warnings.warn(f"{directory}: transformers' VitsTokenizer romanizes text holding non-ASCII characters with "
                      "uroman when that package is installed; hfcompat encodes the text as it is, as AutoTokenizer "
                      "does without uroman", UserWarning, stacklevel=5)


def _esm_vocab(path: Path) -> list[str]:
    """vocab.txt's lines as EsmTokenizer reads them (str.splitlines, each stripped)."""
    try:
        return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    except FileNotFoundError:
        raise FormatError("missing: the class reads this file", path=str(path)) from None
    except UnicodeDecodeError as error:
        raise FormatError(f"not UTF-8: {error}", path=str(path)) from None


def esm(directory: Path, config: Config) -> Data:
    """EsmTokenizer: every vocab.txt entry is found in the text first, the rest is split at whitespace (str.split)
    and each piece is its entry or the unk token; "<cls> $A <eos>", pairs "... $B:1 <eos>:1"; decode joins the
    tokens with spaces. All of it fits tokenizer.json."""
    tokens = _esm_vocab(directory / "vocab.txt")
    vocab = {token: index for index, token in enumerate(tokens)}
    roles = _class_roles("EsmTokenizer", config)
    specials = set(roles.values()) | _extra_specials(config)
    cls, eos = roles.get("cls_token"), roles.get("eos_token")
    single = [f"{cls}:0", "$A:0"] + ([f"{eos}:0"] if eos else [])
    return {"model": {"type": "WordLevel", "vocab": vocab, "unk_token": roles.get("unk_token")},
            "pre_tokenizer": PYTHON_WHITESPACE,
            "post_processor": _template(single, single + ["$B:1", f"{eos}:1"], vocab),
            "added_tokens": [_added(token, vocab[token], token in specials) for token in vocab]}


def _template(single: list[str], pair: list[str], vocab: dict[str, int]) -> Data:
    """classes.template over `vocab`, naming the role tokens the items hold."""
    names = [item.rpartition(":")[0] for item in single + pair]
    return template(single, pair, [name for name in names if name not in ("$A", "$B")], {"model": {"vocab": vocab}})


# EsmcTokenizer's fixed vocabulary, in id order.
ESMC_VOCABULARY = ("<cls>", "<pad>", "<eos>", "<unk>", *"LAGVSERTIDPKQNFYMHWCXBUZO.-|", "<mask>")


def esmc(directory: Path, config: Config) -> Data:
    """EsmcTokenizer (no file read): its fixed protein vocabulary as a BPE without merges (one token per
    character, unk for any other), "<cls> $A <eos>" (a pair: "$A $B:1", tokenizers' default without a pair
    template); its chain-break "|" is a special token. Fits tokenizer.json."""
    vocab = {token: index for index, token in enumerate(ESMC_VOCABULARY)}
    roles = _class_roles("EsmcTokenizer", config)
    chain_break = role(config, "chain_break_token", "|")
    cls, eos = roles.get("cls_token"), roles.get("eos_token")
    single = [f"{cls}:0", "$A:0", f"{eos}:0"]
    return {"model": {"type": "BPE", "vocab": vocab, "merges": [], "unk_token": roles.get("unk_token"),
                      "dropout": None, "continuing_subword_prefix": None, "end_of_word_suffix": None,
                      "fuse_unk": False, "byte_fallback": False, "ignore_merges": False},
            "post_processor": _template(single, ["$A:0", "$B:1"], vocab),
            "added_tokens": [_added(chain_break, vocab[chain_break], True)] if chain_break in vocab else [],
            "after_load": _tokenizers_type_ids}


def _tokenizers_type_ids(tokenizer: Any) -> None:
    """After loading: EsmcTokenizer runs on tokenizers, not as a Python tokenizer, so a pair encoded without special
    tokens keeps its template's type ids (the loader's PythonTypeIds wrapper is taken off again) and truncation is
    tokenizers'."""
    tokenizer.post_processor = getattr(tokenizer.post_processor, "inner", tokenizer.post_processor)
    tokenizer.python_truncation = False


CLASSES = {
    "Wav2Vec2CTCTokenizer": wav2vec2_ctc,
    "MgpstrTokenizer": mgpstr,
    "EsmTokenizer": esm,
    "EsmcTokenizer": esmc,
    "VitsTokenizer": vits,
    "Wav2Vec2PhonemeCTCTokenizer": wav2vec2_phoneme,
}
