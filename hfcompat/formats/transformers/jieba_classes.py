"""transformers' Chinese classes that need rjieba to load: CpmTokenizer, RoFormerTokenizer and CpmAntTokenizer,
from the files they read as AutoTokenizer runs them.

CpmTokenizer (transformers 5.24 imports rjieba and never calls it) runs XLNet's preprocessing and digit-comma
split around sentencepiece on spiece.model (models/xlnet_pieces.py), adds "$A <sep> <cls>" ("$A <sep> $B <sep>
<cls>", type ids 0, 1 and 2), and decodes with every space removed and ▂/▃ as space/newline
(decoders/cpm_text.py). RoFormerTokenizer is tokenizers' BERT pipeline (no CJK spacing in the normalizer) with
rjieba's words as pre-tokenizer (segmentation/vocabulary_words.py over hfcompat's own jieba-rs segmentation,
reading jieba's dict.txt). CpmAntTokenizer cuts rjieba's words (whitespace kept) into longest vocabulary matches
(models/longest_match_pieces.py) over vocab.txt, its space and line tokens standing for " " and "\\n".
Nothing here calls transformers or rjieba; tests/pretrained/test_jieba_classes.py holds
each class to AutoTokenizer.
"""

from __future__ import annotations

import functools
import json
import os
import warnings
from pathlib import Path
from typing import Any, Callable, Container

from ...decoders.cpm_text import CpmText
from ...decoders.dropped_ids_text import DroppedIdsText
from ...errors import FormatError, MissingDependency, UnsupportedConversion
from ...models.longest_match_pieces import LongestMatchPieces
from ...models.vocab_files import read_vocab_txt
from ...models.xlnet_pieces import XLNetPieces
from ...segmentation.dictionary import Dictionary
from ...segmentation.segmenter import Segmenter
from ...segmentation.vocabulary_words import VocabularyWords
from ...segmentation.words_around_literals import WordsAroundLiterals
from ...tokenizer import Tokenizer
from ..sentencepiece.read import read_sentencepiece, sentencepiece_source
from . import classes
from .bert_like import read_python_vocab

Config = dict[str, Any]
Data = dict[str, Any]
CPM_MODEL = "spiece.model"
VOCAB_TXT = "vocab.txt"
TOKENIZER_JSON = "tokenizer.json"


def cpm(directory: Path, config: Config) -> Data:
    """CpmTokenizer: XLNet's Python preprocessing around sentencepiece, XLNet's template, CPM's decode."""
    sentencepiece = read_sentencepiece(directory / CPM_MODEL)
    if config.get("sp_model_kwargs"):
        warnings.warn(f"{directory}: transformers' CpmTokenizer passes sp_model_kwargs (sampling options) to "
                      "sentencepiece; hfcompat encodes without them", UserWarning, stacklevel=6)
    unk_id = sentencepiece_source(sentencepiece).proto.trainer_spec.unk_id
    model = XLNetPieces(sentencepiece, unk_id, lowercase=bool(config.get("do_lower_case", False)),
                        remove_space=bool(config.get("remove_space", True)),
                        keep_accents=bool(config.get("keep_accents", False)))
    cls, sep = classes.role(config, "cls_token", "<cls>"), classes.role(config, "sep_token", "<sep>")
    post_processor = classes.template(["$A:0", f"{sep}:0", f"{cls}:2"],
                                      ["$A:0", f"{sep}:0", "$B:1", f"{sep}:1", f"{cls}:2"], [cls, sep], {"model": {}})
    return {"model": model, "decoder": CpmText(), "post_processor": post_processor}


@functools.lru_cache(maxsize=1)
def rjieba_segmenter() -> Segmenter:
    """rjieba.cut(text, False) without rjieba: Segmenter "dag" over jieba's dict.txt (the dictionary jieba-rs
    embeds) with jieba-rs's Han runs; MissingDependency when the jieba package (the file's source) is absent."""
    try:
        dictionary = Dictionary.from_jieba()
    except ModuleNotFoundError:
        raise MissingDependency("RoFormerTokenizer and CpmAntTokenizer segment words as rjieba does; hfcompat reads "
                                "the same dictionary "
                                "from the jieba package's dict.txt (it does not run jieba): pip install jieba==0.42.1") \
            from None
    return Segmenter(dictionary, method="dag", blocks="jieba-rs")


def roformer_vocab(directory: Path) -> tuple[dict[str, int], Container[str]]:
    """The WordPiece vocabulary (tokenizer.json's, else vocab.txt read as tokenizers reads it) and what the
    class's jieba step tests words against: that dict, or from vocab.txt the file's path string."""
    if (directory / TOKENIZER_JSON).is_file():
        path = directory / TOKENIZER_JSON
        try:
            vocab = json.loads(path.read_text(encoding="utf-8"))["model"]["vocab"]
        except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as error:
            raise FormatError(f"cannot read the model's vocab: {error!r}", path=str(path)) from None
        if not isinstance(vocab, dict):
            raise FormatError("expected a WordPiece model's vocab object", path=str(path), field="model.vocab")
        return vocab, vocab
    path = directory / VOCAB_TXT
    if not path.is_file():
        raise FormatError("missing: RoFormerTokenizer reads its vocabulary from it or tokenizer.json (transformers "
                          "loads the directory but fails on every text with a TypeError)", path=str(path))
    return read_vocab_txt(path), os.path.join(str(directory), VOCAB_TXT)


def roformer(directory: Path, config: Config) -> Data:
    """RoFormerTokenizer: BertNormalizer without CJK spacing, rjieba words over the vocabulary, WordPiece,
    "[CLS] $A [SEP]" ("... $B:1 [SEP]:1"), WordPiece's decoder."""
    vocab, known = roformer_vocab(directory)
    unk = classes.role(config, "unk_token", "[UNK]")
    cls, sep = classes.role(config, "cls_token", "[CLS]"), classes.role(config, "sep_token", "[SEP]")
    data: Data = {"model": {"type": "WordPiece", "vocab": vocab, "unk_token": unk, "continuing_subword_prefix": "##",
                            "max_input_chars_per_word": 100},
                  "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": False,
                                 "strip_accents": config.get("strip_accents"),
                                 "lowercase": bool(config.get("do_lower_case", True))},
                  "pre_tokenizer": VocabularyWords(rjieba_segmenter(), known),
                  "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True}, "added_tokens": []}
    data["post_processor"] = classes.template([f"{cls}:0", "$A:0", f"{sep}:0"],
                                              [f"{cls}:0", "$A:0", f"{sep}:0", "$B:1", f"{sep}:1"], [cls, sep], data)
    return data


# CpmAntTokenizer's space and line tokens: their ids are those of " " and "\\n" whatever the config says.
CPM_ANT_TEXT_TOKENS = {"space_token": ("</_>", " "), "line_token": ("</n>", "\n")}


def cpm_ant_vocab(path: Path) -> dict[str, int]:
    """vocab.txt as CpmAntTokenizer keeps it: the ids of "</_>" and "</n>" given to " " and "\\n" instead."""
    vocab = read_python_vocab(path)
    for token, text in CPM_ANT_TEXT_TOKENS.values():
        if token not in vocab:
            raise FormatError(f"no {token!r}: CpmAntTokenizer reads the id of {text!r} from it (transformers refuses "
                              "the directory without it)", path=str(path))
        vocab[text] = vocab.pop(token)
    return vocab


def cpm_ant_text_tokens(config: Config, vocab: dict[str, int]) -> tuple[tuple[str, ...], list[str]]:
    """The space and line tokens cut out of the text as the unknown token (those the config leaves at their
    defaults), and the config's other ones, special tokens with their vocabulary ids (one outside the
    vocabulary is refused: transformers gives it a new id in an order hfcompat does not follow)."""
    literals, specials = [], []
    for key, (default, _) in CPM_ANT_TEXT_TOKENS.items():
        token = str(classes.role(config, key, default))
        if token == default:
            literals.append(token)
        elif token not in vocab:
            raise UnsupportedConversion(f"added_tokens: CpmAntTokenizer's {key} {token!r} is not in vocab.txt, so "
                                        "transformers gives it a new id, in an order hfcompat does not follow")
        else:
            specials.append(token)
    return tuple(literals), specials


def cpm_ant(directory: Path, config: Config) -> Data:
    """CpmAntTokenizer: rjieba's words (whitespace kept, its default space and line tokens cut out first as the
    unknown token), longest-match pieces over vocab.txt, "<s> $A" ("<s> $A <s> $B", type ids 0), and a decode
    that drops the pad, eos and bos ids and joins the tokens."""
    vocab = cpm_ant_vocab(directory / VOCAB_TXT)
    literals, specials = cpm_ant_text_tokens(config, vocab)
    unk = str(classes.role(config, "unk_token", "<unk>"))
    bos = classes.role(config, "bos_token", "<s>")
    decoder = DroppedIdsText()

    def after_load(tokenizer: Tokenizer) -> None:
        """Add the config's own space and line tokens; tell the decoder the ids it drops."""
        tokenizer.add_special_tokens(specials)
        defaults = classes.DEFAULT_ROLES["CpmAntTokenizer"]
        roles = (classes.role(config, key, defaults[key]) for key in ("pad_token", "eos_token", "bos_token"))
        decoder.dropped = frozenset(i for i in map(tokenizer.token_to_id, filter(None, roles)) if i is not None)

    return {"model": LongestMatchPieces(vocab, unk, frozenset(literals)),
            "pre_tokenizer": WordsAroundLiterals(rjieba_segmenter(), literals), "decoder": decoder,
            "post_processor": classes.template([f"{bos}:0", "$A:0"], [f"{bos}:0", "$A:0", f"{bos}:0", "$B:0"], [bos],
                                               {"model": {}}),
            "after_load": after_load}


CLASSES: dict[str, Callable[[Path, Config], Data]] = {"CpmTokenizer": cpm, "RoFormerTokenizer": roformer,
                                                      "CpmAntTokenizer": cpm_ant}
