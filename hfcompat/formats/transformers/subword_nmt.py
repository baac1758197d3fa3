"""transformers' subword-nmt / fastBPE classes (CTRL, BlenderbotSmall, PhoBERT, BERTweet), built from the files
they read as AutoTokenizer runs them (models/subword_nmt.py: BPE with "</w>" inside a word, "@@" on its
subwords but the last).

CTRLTokenizer and BlenderbotSmallTokenizer read vocab.json and merges.txt (its first line is a header, and the
line after the last newline is dropped); BlenderbotSmall lowercases and cuts punctuation off (models'
splitter), adds nothing around a sequence and gives a pair's second sequence type id 1. PhobertTokenizer and
BertweetTokenizer read vocab.txt (fairseq's "token count" lines, ids from 4 after <s> <pad> </s> <unk>) and
bpe.codes ("left right count" lines), and add "<s> $A </s>" ("<s> $A </s> </s> $B </s>", type ids 0).
BERTweet's normalization=True rewrites the text first (normalizers/tweet.py). Every class decodes by
joining the tokens with spaces and removing "@@ ". Nothing here calls transformers;
tests/pretrained/test_subword_nmt_classes.py holds each class to AutoTokenizer.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any, Callable

from ...decoders.subword_nmt import SubwordNmtDecoder
from ...errors import FormatError
from ...models.subword_nmt import SubwordNmt, WordSplitter, merge_ranks
from ...normalizers.tweet import normalize_tweet
from ...pre_tokenizers.subword_nmt_words import NormalizedRuns, WordRuns, blenderbot_small_splitter
from .classes import DEFAULT_ROLES, role

Config = dict[str, Any]
Data = dict[str, Any]
# A template item: a sequence ("A" or "B") with its type id, or a special token's text (type id 0).
Item = tuple[str, int] | str
# fairseq's first four ids, by role.
FAIRSEQ_ROLES = ("bos_token", "pad_token", "eos_token", "unk_token")
EMOJI_RULE = ("turns each one-character word into its emoji name (emoji.demojize) when the emoji package is "
              "installed; hfcompat encodes as transformers does without it")


def _text(path: Path) -> str:
    """A UTF-8 file's text with its line ends as Python's open() gives them ("\\r\\n" and "\\r" as "\\n")."""
    if not path.is_file():
        raise FormatError("the class reads this file and it is missing", path=str(path))
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise FormatError(f"not UTF-8: {error}", path=str(path)) from None


def read_vocab_json(path: Path) -> dict[str, int]:
    """vocab.json as json.load gives it (a token listed twice keeps its last id)."""
    try:
        vocab = json.loads(_text(path))
    except json.JSONDecodeError as error:
        raise FormatError(f"not valid JSON: {error}", path=str(path)) from None
    if not isinstance(vocab, dict) or not all(isinstance(i, int) for i in vocab.values()):
        raise FormatError("expected an object of token -> integer id", path=str(path))
    return vocab


def read_fairseq_vocab(path: Path, roles: dict[str, str]) -> dict[str, int]:
    """vocab.txt after the four fairseq roles at ids 0-3: each line's text before its last space, at the id the
    count of entries so far gives (a token listed again takes that count, as transformers' dict does)."""
    vocab = {roles[key]: index for index, key in enumerate(FAIRSEQ_ROLES)}
    lines = _text(path).split("\n")
    for number, line in enumerate(lines[:-1] if lines[-1] == "" else lines, 1):
        line = line.strip()
        if " " not in line:
            raise FormatError(f"line {number}: expected '<token> <count>' (transformers refuses the file)",
                              path=str(path))
        vocab[line[: line.rfind(" ")]] = len(vocab)
    return vocab


def read_merges(path: Path, header: bool) -> dict[tuple[str, str], int]:
    """The ranks of merges.txt (after its header line) or of bpe.codes (each line's last field, a count,
    dropped); what follows the last newline is not read."""
    lines = _text(path).split("\n")[:-1]
    if header:
        return merge_ranks(tuple(line.split()) for line in lines[1:])
    return merge_ranks(tuple(line.split()[:-1]) for line in lines)


def class_role(config: Config, name: str, key: str) -> str:
    """A role's token as the class's constructor takes it (str() of the config's, else its default)."""
    return str(role(config, key, DEFAULT_ROLES[name].get(key)))


def _model(directory: Path, vocab: dict[str, int], ranks: dict[tuple[str, str], int], unk: str,
           split_words: WordSplitter, lowercase_lookup: bool = False) -> SubwordNmt:
    """The model, with a warning when the vocabulary lacks the unknown token (transformers then gives the id
    None to a subword outside it, which hfcompat refuses to encode)."""
    if unk not in vocab:
        warnings.warn(f"{directory}: the vocabulary has no {unk!r}, so transformers gives the id None to a subword "
                      "outside it; hfcompat raises TokenizationError there", UserWarning, stacklevel=5)
    return SubwordNmt(vocab, ranks, unk, split_words, lowercase_lookup)


def template_dict(single: list[Item], pair: list[Item]) -> Data:
    """A TemplateProcessing dict; its special tokens' ids are None until loading adds the roles (fill_ids)."""
    def items(spec: list[Item]) -> list[Data]:
        return [{"SpecialToken": {"id": item, "type_id": 0}} if isinstance(item, str) else
                {"Sequence": {"id": item[0], "type_id": item[1]}} for item in spec]

    specials = {item for item in pair if isinstance(item, str)}
    return {"type": "TemplateProcessing", "single": items(single), "pair": items(pair),
            "special_tokens": {token: {"id": token, "ids": [None], "tokens": [token]} for token in sorted(specials)}}


def _pipeline(model: SubwordNmt, config: Config, single: list[Item], pair: list[Item]) -> Data:
    """The tokenizer.json dict around the model: its template and the subword-nmt decoder (cleaning up spaces
    before punctuation when the config says so)."""
    return {"model": model, "decoder": SubwordNmtDecoder(bool(config.get("clean_up_tokenization_spaces"))),
            "post_processor": template_dict(single, pair)}


def ctrl(directory: Path, config: Config) -> Data:
    """CTRLTokenizer: vocab.json + merges.txt, words the `regex` runs, nothing added around a sequence."""
    unk = class_role(config, "CTRLTokenizer", "unk_token")
    model = _model(directory, read_vocab_json(directory / "vocab.json"),
                   read_merges(directory / "merges.txt", header=True), unk, WordRuns())
    return _pipeline(model, config, [("A", 0)], [("A", 0), ("B", 0)])


def blenderbot_small(directory: Path, config: Config) -> Data:
    """BlenderbotSmallTokenizer: CTRL's files, words lowercased with punctuation cut off, nothing added around a
    sequence, type id 1 for a pair's second."""
    unk = class_role(config, "BlenderbotSmallTokenizer", "unk_token")
    model = _model(directory, read_vocab_json(directory / "vocab.json"),
                   read_merges(directory / "merges.txt", header=True), unk, blenderbot_small_splitter,
                   lowercase_lookup=True)
    return _pipeline(model, config, [("A", 0)], [("A", 0), ("B", 1)])


def _fairseq_class(name: str, split_words: WordSplitter) -> Callable[[Path, Config], Data]:
    """The builder of PhoBERT-like classes: vocab.txt + bpe.codes, "<s> $A </s>" ("... </s> $B </s>")."""
    def build(directory: Path, config: Config) -> Data:
        roles = {key: class_role(config, name, key) for key in (*FAIRSEQ_ROLES, "cls_token", "sep_token")}
        vocab = read_fairseq_vocab(directory / "vocab.txt", roles)
        model = _model(directory, vocab, read_merges(directory / "bpe.codes", header=False), roles["unk_token"],
                       split_words)
        cls, sep = roles["cls_token"], roles["sep_token"]
        return _pipeline(model, config, [cls, ("A", 0), sep], [cls, ("A", 0), sep, sep, ("B", 0), sep])

    build.__doc__ = f"{name}: vocab.txt + bpe.codes, fairseq ids, '<s> $A </s>' (pairs '... </s> $B </s>')."
    return build


def bertweet(directory: Path, config: Config) -> Data:
    """BertweetTokenizer: PhoBERT's pipeline, over the normalized tweet when normalization is on (with a warning
    for what the emoji package would add)."""
    if not config.get("normalization"):
        return _fairseq_class("BertweetTokenizer", WordRuns(python_re=True))(directory, config)
    warnings.warn(f"{directory}: transformers' BertweetTokenizer {EMOJI_RULE}", UserWarning, stacklevel=4)
    return _fairseq_class("BertweetTokenizer", NormalizedRuns(normalize_tweet))(directory, config)


CLASSES: dict[str, Callable[[Path, Config], Data]] = {
    "CTRLTokenizer": ctrl,
    "BlenderbotSmallTokenizer": blenderbot_small,
    "PhobertTokenizer": _fairseq_class("PhobertTokenizer", WordRuns(python_re=True)),
    "BertweetTokenizer": bertweet,
}
