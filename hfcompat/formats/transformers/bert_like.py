"""transformers' Python tokenizers built on BERT's basic tokenization and WordPiece, from the files they read.

ProphetNetTokenizer (prophetnet.tokenizer, a vocab.txt; "$A [SEP]", pairs "$A [SEP] $B:1 [SEP]:1", and its
[X_SEP] special token), RoCBertTokenizer (vocab.txt; it also needs word_shape.json and word_pronunciation.json,
which give only the shape and pronunciation ids hfcompat's encode does not return) and BertJapaneseTokenizer
(vocab.txt; word_tokenizer_type "basic", subword_tokenizer_type "wordpiece" or "character"). Each runs
transformers' BasicTokenizer with Python's Unicode tables (normalizers/basic_tokenizer.py,
pre_tokenizers/basic_tokenizer.py), WordPiece, and the Python decode (decoders/joined_word_pieces.py): hfcompat's
own components, which tokenizer.json cannot hold. BERT's model dict and [CLS]/[SEP] template come from
classes.bert. Nothing here calls transformers; tests/pretrained/test_bert_like_classes.py holds each to
AutoTokenizer.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from ...decoders.joined_word_pieces import JoinedWordPieces
from ...errors import FormatError, UnsupportedConversion
from ...normalizers.basic_tokenizer import BasicTokenizerNormalizer
from ...pre_tokenizers.basic_tokenizer import BasicTokenizerSplit
from . import classes

Config = dict[str, Any]
Data = dict[str, Any]

PROPHETNET_VOCAB = "prophetnet.tokenizer"
VOCAB_TXT = "vocab.txt"
ROC_BERT_SIDE_FILES = ("word_shape.json", "word_pronunciation.json")
# BertJapaneseTokenizer's word tokenizers that run a morphological analyzer, and the package each needs.
JAPANESE_ANALYZERS = {"mecab": "fugashi (MeCab) and a dictionary", "sudachi": "sudachipy and sudachidict",
                      "jumanpp": "rhoknp and the Juman++ program"}


def read_python_vocab(path: Path) -> dict[str, int]:
    """A vocab.txt as transformers' load_vocab reads it: lines split on any newline, only "\\n" stripped, a
    repeated token taking its last line's id."""
    try:
        with path.open(encoding="utf-8") as reader:
            lines = reader.readlines()
    except FileNotFoundError:
        raise FormatError("missing: the class reads its vocabulary from it (transformers refuses the directory "
                          "without it)", path=str(path)) from None
    except (OSError, UnicodeDecodeError) as error:
        raise FormatError(f"cannot read: {error}", path=str(path)) from None
    return {line.rstrip("\n"): index for index, line in enumerate(lines)}


def python_bert(vocab_file: Path, config: Config, *, lowercase: bool = True, chinese_chars: bool = True,
                cleanup: bool = False, characters: bool = False) -> Data:
    """BertTokenizer's model and template (classes.bert) over `vocab_file` with BasicTokenizer's normalizer and
    split and the Python decode; the defaults of do_lower_case, tokenize_chinese_chars and
    clean_up_tokenization_spaces are the class's. With `characters`, each word is cut into its NFKC characters,
    each its own id or the unk token's."""
    vocab = read_python_vocab(vocab_file)
    data = classes.bert(config, {"model": {"type": "WordPiece", "vocab": vocab}, "added_tokens": []})
    if characters:
        data["model"] = {"type": "WordLevel", "vocab": vocab, "unk_token": data["model"]["unk_token"]}
    data["normalizer"] = BasicTokenizerNormalizer(lowercase=bool(config.get("do_lower_case", lowercase)),
                                                  strip_accents=config.get("strip_accents"),
                                                  handle_chinese_chars=bool(config.get("tokenize_chinese_chars",
                                                                                       chinese_chars)))
    data["pre_tokenizer"] = BasicTokenizerSplit(characters=characters)
    data["decoder"] = JoinedWordPieces(cleanup=bool(config.get("clean_up_tokenization_spaces", cleanup)))
    if config.get("never_split"):
        _warn(vocab_file.parent, f"transformers keeps a word of never_split {list(config['never_split'])[:5]} whole "
              "(not lowercased, not split at punctuation); hfcompat normalizes and splits it like any other word")
    return data


def _check_basic_tokenize(name: str, config: Config) -> None:
    """BasicTokenizer on: hfcompat does not build the bare-WordPiece variant."""
    if config.get("do_basic_tokenize", True) is False:
        raise UnsupportedConversion(f"pre_tokenizer: {name} with do_basic_tokenize false runs WordPiece on the raw "
                                    "whitespace-split text, which hfcompat does not build")


def prophetnet(directory: Path, config: Config) -> Data:
    """ProphetNetTokenizer: BERT's Python pipeline over prophetnet.tokenizer, "$A [SEP]" (pairs
    "$A [SEP] $B:1 [SEP]:1"), decode cleaned up by default; [X_SEP] is a special token (class_extra_tokens)."""
    _check_basic_tokenize("ProphetNetTokenizer", config)
    data = python_bert(directory / PROPHETNET_VOCAB, config, cleanup=True)
    sep = classes.role(config, "sep_token", "[SEP]")
    data["post_processor"] = classes.template(["$A:0", f"{sep}:0"], ["$A:0", f"{sep}:0", "$B:1", f"{sep}:1"], [sep],
                                              data)
    return data


def roc_bert(directory: Path, config: Config) -> Data:
    """RoCBertTokenizer: BERT's Python pipeline over vocab.txt (its ids depend on nothing else); the shape and
    pronunciation files must be there, as transformers demands."""
    _check_basic_tokenize("RoCBertTokenizer", config)
    for name in ROC_BERT_SIDE_FILES:
        if not (directory / name).is_file():
            raise FormatError("missing: RoCBertTokenizer needs it (transformers refuses the directory without it)",
                              path=str(directory / name))
    _warn(directory, "transformers' RoCBertTokenizer also returns input_shape_ids and input_pronunciation_ids (from "
          "word_shape.json and word_pronunciation.json); hfcompat gives the input_ids alone")
    return python_bert(directory / VOCAB_TXT, config)


def bert_japanese(directory: Path, config: Config) -> Data:
    """BertJapaneseTokenizer with the basic word tokenizer (no lowercasing and no CJK spacing by default) and the
    wordpiece or character subword tokenizer; the analyzers (MeCab, Sudachi, Juman++) and sentencepiece are
    refused, naming what transformers needs for them."""
    word = config.get("word_tokenizer_type", "basic")
    subword = config.get("subword_tokenizer_type", "wordpiece")
    if word in JAPANESE_ANALYZERS:
        raise UnsupportedConversion(f"pre_tokenizer: BertJapaneseTokenizer's word_tokenizer_type {word!r} segments "
                                    f"words with {JAPANESE_ANALYZERS[word]}, which hfcompat does not run (transformers "
                                    "needs those installed to load it)")
    if word != "basic" or subword not in ("wordpiece", "character"):
        raise UnsupportedConversion(f"model: BertJapaneseTokenizer with word_tokenizer_type {word!r} and "
                                    f"subword_tokenizer_type {subword!r} is not built by hfcompat (it builds 'basic' "
                                    "with 'wordpiece' or 'character')")
    if config.get("do_word_tokenize", True) is False or config.get("do_subword_tokenize", True) is False:
        raise UnsupportedConversion("model: BertJapaneseTokenizer without its word or subword step is not built by "
                                    "hfcompat")
    return python_bert(directory / VOCAB_TXT, config, lowercase=False, chinese_chars=False,
                       characters=subword == "character")


def _warn(directory: Path, message: str) -> None:
    """A UserWarning about the directory, pointing at the caller of hfcompat.load."""
    warnings.warn(f"{directory}: {message}", UserWarning, stacklevel=7)


CLASSES = {"ProphetNetTokenizer": prophetnet, "RoCBertTokenizer": roc_bert, "BertJapaneseTokenizer": bert_japanese}
