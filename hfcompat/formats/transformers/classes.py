"""The pipelines transformers 5.x tokenizer classes build, as tokenizer.json dicts, and the table of classes.

AutoTokenizer does not always take tokenizer.json as it is: a class with its own constructor
(BertTokenizer, GPT2Tokenizer, LlamaTokenizer, GemmaTokenizer, Qwen2Tokenizer, T5Tokenizer, ...) keeps
only the vocabulary (and merges) and the post-processor of the file and builds its normalizer,
pre-tokenizer, decoder and sometimes its post-processor itself, from tokenizer_config.json's options.
Each builder here takes the tokenizer.json dict (the file's, or one made from slow files) and the
config, and returns the dict of the pipeline that class builds; classes that build the same share one
(CLASSES). A class without a constructor of its own, or one transformers does not know, is loaded as
TokenizersBackend and takes the file as it is (AS_IS_CLASSES); so is a LlamaTokenizer directory whose
tokenizer.json is byte-level (BYTE_LEVEL_MEANS_AS_IS). The other classes of transformers' auto mapping
are named in NOT_BUILT with what transformers does that hfcompat does not. Nothing here calls
transformers; tests/pretrained/test_class_table.py holds each entry to AutoTokenizer.
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Callable

from ...decoders.byte_chars import ByteChars
from ...errors import FormatError
from ...models.code_points import CodePoints
from ...models.utf8_bytes import UTF8Bytes
from ...processors.byt5 import ByT5Processing

Config = dict[str, Any]
Data = dict[str, Any]

def token_text(value: Any) -> str | None:
    """A special token of tokenizer_config.json: a string or an AddedToken dict."""
    if isinstance(value, dict):
        return value.get("content")
    return value if isinstance(value, str) else None


def role(config: Config, name: str, default: str | None) -> str | None:
    """The token of a role (`bos_token`, ...) in the config, else the class default."""
    return token_text(config[name]) if name in config else default


def vocab_ids(data: Data) -> dict[str, int]:
    """The model's vocabulary as token -> id (Unigram's list gives positions)."""
    vocab = data["model"].get("vocab", {})
    if isinstance(vocab, list):
        return {entry[0]: index for index, entry in enumerate(vocab)}
    return dict(vocab)


def token_ids(data: Data) -> dict[str, int]:
    """The model's vocabulary and the file's added tokens as token -> id."""
    ids = vocab_ids(data)
    for entry in data.get("added_tokens") or []:
        ids.setdefault(entry["content"], entry["id"])
    return ids


def template(single: list[str], pair: list[str], specials: list[str], data: Data) -> Data:
    """A TemplateProcessing dict from transformers' string items ("$A:0", "[CLS]:0", "</s>"); a token
    not in the file yet has the id None until transformers' adding of special tokens gives it one
    (fill_ids)."""
    ids = token_ids(data)

    def items(spec: list[str]) -> list[Data]:
        out = []
        for item in spec:
            name, _, type_id = item.partition(":")
            type_id = int(type_id or 0)
            if name in ("$A", "$B"):
                out.append({"Sequence": {"id": name[1], "type_id": type_id}})
            else:
                out.append({"SpecialToken": {"id": name, "type_id": type_id}})
        return out

    return {"type": "TemplateProcessing", "single": items(single), "pair": items(pair),
            "special_tokens": {name: {"id": name, "ids": [ids.get(name)], "tokens": [name]}
                               for name in sorted(set(specials))}}


def _pairs_of(processor: Data) -> list[list]:
    """The [token, id] pairs and the TemplateProcessing special-token entries of a post-processor dict."""
    kind = processor.get("type")
    if kind == "Sequence":
        return [pair for inner in processor.get("processors", []) for pair in _pairs_of(inner)]
    if kind in ("RobertaProcessing", "BertProcessing"):
        return [processor[key] for key in ("sep", "cls") if isinstance(processor.get(key), list)]
    if kind == "TemplateProcessing":
        return [[entry["tokens"][0], entry["ids"]] for entry in processor.get("special_tokens", {}).values()
                if len(entry.get("ids") or []) == 1 and len(entry.get("tokens") or []) == 1]
    return []


def has_unknown_ids(processor: Data | None) -> bool:
    """True when a post-processor dict names a token whose id is not known yet (None)."""
    return bool(processor) and any(pair[1] is None or pair[1] == [None] for pair in _pairs_of(processor))


def fill_ids(processor: Data, token_to_id: Callable[[str], int | None]) -> Data:
    """The post-processor dict with each unknown id looked up (after the special tokens were added)."""
    processor = copy.deepcopy(processor)
    for pair in _pairs_of(processor):
        if pair[1] == [None]:
            pair[1][0] = token_to_id(pair[0])
        elif pair[1] is None:
            pair[1] = token_to_id(pair[0])
    return processor


def bos_eos_template(config: Config, data: Data) -> Data:
    """transformers' own template for add_bos_token/add_eos_token (TokenizersBackend)."""
    bos = role(config, "bos_token", None) if config.get("add_bos_token") else None
    eos = role(config, "eos_token", None) if config.get("add_eos_token") else None

    def side(type_id: int, sequence: str) -> list[str]:
        return ([f"{bos}:{type_id}"] if bos else []) + [f"${sequence}:{type_id}"] + \
            ([f"{eos}:{type_id}"] if eos else [])

    return template(side(0, "A"), side(0, "A") + side(1, "B"), [t for t in (bos, eos) if t], data)


# ---------------------------------------------------------------- the classes


def bert(config: Config, data: Data, roles: tuple[str, str, str] = ("[UNK]", "[CLS]", "[SEP]"),
         cls_type_id: int = 0) -> Data:
    """BertTokenizer (FunnelTokenizer: other default roles, type id 2 for its cls): WordPiece with BERT's
    normalizer, pre-tokenizer, decoder and [CLS]/[SEP] template."""
    unk, cls, sep = (role(config, key, default) for key, default in zip(("unk_token", "cls_token", "sep_token"), roles))
    data = _bert_wordpiece(config, data, unk)
    data["post_processor"] = template([f"{cls}:{cls_type_id}", "$A:0", f"{sep}:0"],
                                      [f"{cls}:{cls_type_id}", "$A:0", f"{sep}:0", "$B:1", f"{sep}:1"], [cls, sep], data)
    return data


def mpnet(config: Config, data: Data) -> Data:
    """MPNetTokenizer: BERT's WordPiece pipeline, and RobertaProcessing(</s>, <s>)."""
    data = _bert_wordpiece(config, data, role(config, "unk_token", "[UNK]"))
    return _roberta_processing(config, data, trim_offsets=True, add_prefix_space=False)


def _bert_wordpiece(config: Config, data: Data, unk: str | None) -> Data:
    """BERT's WordPiece model, normalizer (clean_text, tokenize_chinese_chars, strip_accents, do_lower_case from the
    config), pre-tokenizer and decoder."""
    data["model"] = {"type": "WordPiece", "unk_token": unk, "continuing_subword_prefix": "##",
                     "max_input_chars_per_word": 100, "vocab": vocab_ids(data)}
    data["normalizer"] = {"type": "BertNormalizer", "clean_text": config.get("clean_text", True),
                          "handle_chinese_chars": config.get("tokenize_chinese_chars", True),
                          "strip_accents": config.get("strip_accents"),
                          "lowercase": config.get("do_lower_case", True)}
    data["pre_tokenizer"] = {"type": "BertPreTokenizer"}
    data["decoder"] = {"type": "WordPiece", "prefix": "##", "cleanup": True}
    return data


def openai_gpt(config: Config, data: Data, lowercase: bool = True) -> Data:
    """OpenAIGPTTokenizer: BPE with the "</w>" word suffix after BERT's lowercasing normalizer and pre-tokenizer;
    the file's post-processor stays."""
    data["model"] = _bpe_model(data, unk_token=role(config, "unk_token", "<unk>"), continuing_subword_prefix="",
                               end_of_word_suffix="</w>")
    data["normalizer"] = {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                          "strip_accents": None if lowercase else False, "lowercase": lowercase}
    data["pre_tokenizer"] = {"type": "BertPreTokenizer"}
    data["decoder"] = {"type": "BPEDecoder", "suffix": "</w>"}
    return data


def herbert(config: Config, data: Data) -> Data:
    """HerbertTokenizer: OpenAI GPT's pipeline without lowercasing or accent stripping (no subword prefix), and
    BertProcessing with the config's sep and cls at the fixed ids 2 and 0."""
    data = openai_gpt(config, data, lowercase=False)
    data["model"]["continuing_subword_prefix"] = None
    data["post_processor"] = {"type": "BertProcessing", "sep": [role(config, "sep_token", "</s>"), 2],
                              "cls": [role(config, "cls_token", "<s>"), 0]}
    return data


def splinter(config: Config, data: Data) -> Data:
    """SplinterTokenizer: BERT's WordPiece pipeline, "[CLS] $A [SEP]", and pairs with "[QUESTION] ." after $A
    (before $B when padding_side is left)."""
    data = _bert_wordpiece(config, data, role(config, "unk_token", "[UNK]"))
    cls, sep = role(config, "cls_token", "[CLS]"), role(config, "sep_token", "[SEP]")
    question = role(config, "question_token", "[QUESTION]")
    middle = [f"{sep}:0", "$B:1", question, ".", f"{sep}:1"] if config.get("padding_side", "right") != "right" \
        else [question, ".", f"{sep}:0", "$B:1", f"{sep}:1"]
    data["post_processor"] = template([f"{cls}:0", "$A:0", f"{sep}:0"], [f"{cls}:0", "$A:0", *middle],
                                      [cls, sep, question, "."], data)
    return data


def nougat(config: Config, data: Data) -> Data:
    """NougatTokenizer: NFKC, its literal splits, single digits and GPT-2's ByteLevel; "<s> $A </s>", pairs
    "$A $B:1"."""
    data["model"] = _plain_byte_level_bpe(data)
    data["normalizer"] = {"type": "NFKC"}

    def split(pattern: str, behavior: str) -> Data:
        return {"type": "Split", "pattern": {"String": pattern}, "behavior": behavior, "invert": False}

    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        split("SPL1T-TH1S-Pl3A5E", "Removed"), {"type": "Digits", "individual_digits": True},
        split(r"[\(\)\[\]\{\}]|([!\"#\$%\&'\*\+,\-\./:;<=>\?\\\^_`\|\~])\1*", "Isolated"),
        split("\n", "Isolated"), _byte_level_dict(False)]}
    data["decoder"] = _byte_level_dict(True)
    bos, eos = role(config, "bos_token", "<s>"), role(config, "eos_token", "</s>")
    data["post_processor"] = template([f"{bos}:0", "$A:0", f"{eos}:0"], ["$A:0", "$B:1"], [bos, eos], data)
    return data


def _bpe_model(data: Data, **options: Any) -> Data:
    """A BPE model dict over the file's vocabulary and merges; `options` differ from tokenizers' defaults."""
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
             "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False}
    model.update(options)
    model["vocab"] = vocab_ids(data)
    model["merges"] = data["model"].get("merges", [])
    return model


# The decoder of the SentencePiece-style BPE classes (Llama, CodeLlama, Gemma): "▁" back to spaces, bytes fused.
_SPACE_BYTES_DECODERS = [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"},
                         {"type": "Fuse"}]
_STRIP_ONE_SPACE = {"type": "Strip", "content": " ", "start": 1, "stop": 0}


def _add_prefix_space(config: Config, default: bool) -> bool:
    """The config's add_prefix_space; a missing or null one is the class default."""
    value = config.get("add_prefix_space")
    return default if value is None else bool(value)


def _byte_level_dict(add_prefix_space: bool, use_regex: bool = True, trim_offsets: bool = True) -> Data:
    """A ByteLevel pre-tokenizer or decoder dict."""
    return {"type": "ByteLevel", "add_prefix_space": add_prefix_space, "trim_offsets": trim_offsets,
            "use_regex": use_regex}


def _plain_byte_level_bpe(data: Data) -> Data:
    """The BPE model the byte-level classes build: no unknown token, empty prefix and suffix."""
    return _bpe_model(data, continuing_subword_prefix="", end_of_word_suffix="")


def _byte_level_bpe(config: Config, data: Data, prefix_space: bool = False) -> Data:
    """GPT-2's byte-level BPE components (shared by GPT2Tokenizer, RobertaTokenizer, BlenderbotTokenizer);
    `prefix_space`: the class's default add_prefix_space."""
    data["model"] = _plain_byte_level_bpe(data)
    data["normalizer"] = None
    data["pre_tokenizer"] = _byte_level_dict(bool(config.get("add_prefix_space", prefix_space)))
    data["decoder"] = _byte_level_dict(True)
    return data


def gpt2(config: Config, data: Data, prefix_space: bool = False) -> Data:
    """GPT2Tokenizer (BlenderbotTokenizer adds a prefix space by default): byte-level BPE; the file's
    post-processor stays."""
    return _byte_level_bpe(config, data, prefix_space)


WHISPER_LANGUAGES_FILE = Path(__file__).with_name("whisper_languages.json")
WHISPER_START = "<|startoftranscript|>"


@lru_cache(maxsize=1)
def whisper_languages() -> dict[str, Any]:
    """whisper_languages.json: WhisperTokenizer's language codes in order, their names, its tasks."""
    return json.loads(WHISPER_LANGUAGES_FILE.read_text(encoding="utf-8"))


def whisper(config: Config, data: Data) -> Data:
    """WhisperTokenizer: GPT-2's byte-level BPE, and a template of its prefix tokens (<|startoftranscript|>, the
    config's language and task, <|notimestamps|> unless predict_timestamps) before $A and the eos after."""
    data = _byte_level_bpe(config, data)
    prefix = whisper_prefix(config, data)
    eos = role(config, "eos_token", "<|endoftext|>")
    data["post_processor"] = template([*prefix, "$A:0", f"{eos}:0"], [*prefix, "$A:0", "$B:1", f"{eos}:1"],
                                      [*prefix, eos], data)
    return data


def whisper_prefix(config: Config, data: Data) -> list[str]:
    """The prefix tokens of WhisperTokenizer: the language's token is the one whose id follows
    <|startoftranscript|>'s by its position in Whisper's language list, as transformers counts it."""
    ids = token_ids(data)
    tokens = {token_id: token for token, token_id in ids.items()}
    table = whisper_languages()
    prefix = [WHISPER_START]
    language = config.get("language")
    if language is not None:
        codes = list(table["languages"])
        names = {name: code for code, name in table["languages"].items()} | table["aliases"]
        code = names.get(str(language).lower(), str(language).lower())
        if code not in codes or WHISPER_START not in ids:
            raise FormatError(f"WhisperTokenizer does not know the language {language!r} (transformers refuses it)",
                              field="language")
        prefix.append(tokens.get(ids[WHISPER_START] + 1 + codes.index(code), WHISPER_START))
    task = config.get("task")
    if task is not None:
        if task not in table["tasks"]:
            raise FormatError(f"WhisperTokenizer's task is one of {table['tasks']}, not {task!r}", field="task")
        prefix.append(f"<|{task}|>")
    if not config.get("predict_timestamps", False):
        prefix.append("<|notimestamps|>")
    return prefix


def roberta(config: Config, data: Data) -> Data:
    """RobertaTokenizer: byte-level BPE and RobertaProcessing(</s>, <s>)."""
    data = _byte_level_bpe(config, data)
    return _roberta_processing(config, data, config.get("trim_offsets", True), bool(config.get("add_prefix_space", False)))


def _roberta_processing(config: Config, data: Data, trim_offsets: bool, add_prefix_space: bool,
                        roles: tuple[tuple[str, str], tuple[str, str]] = (("sep_token", "</s>"), ("cls_token", "<s>"))
                        ) -> Data:
    """RobertaProcessing with the config's sep and cls (`roles`: their config keys and defaults)."""
    ids = token_ids(data)
    sep, cls = (role(config, key, default) for key, default in roles)
    data["post_processor"] = {"type": "RobertaProcessing", "sep": [sep, ids.get(sep)], "cls": [cls, ids.get(cls)],
                              "trim_offsets": trim_offsets, "add_prefix_space": add_prefix_space}
    return data


def luke(config: Config, data: Data) -> Data:
    """LukeTokenizer: RobertaTokenizer's byte-level BPE; its RobertaProcessing keeps tokenizers' defaults (offsets
    trimmed, add_prefix_space on) whatever the config says. Its entity calls are a CLASS_CALL_RULES entry."""
    data = _byte_level_bpe(config, data)
    return _roberta_processing(config, data, trim_offsets=True, add_prefix_space=True)


CLIP_PATTERN = r"<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"


def clip(config: Config, data: Data) -> Data:
    """CLIPTokenizer: BPE with the "</w>" word suffix after NFC, folded whitespace and lowercasing, its split
    pattern then ByteLevel, RobertaProcessing(eos, bos); decode turns "</w>" into spaces (DECODED_TEXT_REWRITES)."""
    data["model"] = _bpe_model(data, unk_token=role(config, "unk_token", "<|endoftext|>"), end_of_word_suffix="</w>",
                               continuing_subword_prefix="")
    data["normalizer"] = {"type": "Sequence", "normalizers": [
        {"type": "NFC"}, {"type": "Replace", "pattern": {"Regex": r"\s+"}, "content": " "}, {"type": "Lowercase"}]}
    split = {"type": "Split", "pattern": {"Regex": CLIP_PATTERN}, "behavior": "Removed", "invert": True}
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [split, _byte_level_dict(False)]}
    data["decoder"] = _byte_level_dict(True)
    return _roberta_processing(config, data, False, False,
                               (("eos_token", "<|endoftext|>"), ("bos_token", "<|startoftext|>")))


def deberta(config: Config, data: Data) -> Data:
    """DebertaTokenizer: GPT-2's byte-level BPE and "[CLS] $A [SEP]" / "[CLS] $A [SEP] [SEP] $B [SEP]" (type ids 0)."""
    data = _byte_level_bpe(config, data)
    cls, sep = role(config, "cls_token", "[CLS]"), role(config, "sep_token", "[SEP]")
    data["post_processor"] = template([cls, "$A", sep], [cls, "$A", sep, sep, "$B", sep], [cls, sep], data)
    return data


def llama(config: Config, data: Data) -> Data:
    """LlamaTokenizer: BPE with byte fallback, Metaspace without split, Llama's decoder."""
    add_prefix_space = _add_prefix_space(config, True)
    scheme = ("always" if config.get("legacy", False) else "first") if add_prefix_space else "never"
    data["model"] = _bpe_model(data, fuse_unk=True, byte_fallback=True)
    data["normalizer"] = None
    data["pre_tokenizer"] = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": scheme, "split": False}
    steps = list(_SPACE_BYTES_DECODERS) + ([_STRIP_ONE_SPACE] if add_prefix_space else [])
    data["decoder"] = {"type": "Sequence", "decoders": steps}
    return data


def code_llama(config: Config, data: Data) -> Data:
    """CodeLlamaTokenizer: Llama's pipeline without `legacy` (prepend "first"), a named unk, always the strip."""
    scheme = "first" if _add_prefix_space(config, True) else "never"
    data["model"] = _bpe_model(data, unk_token=role(config, "unk_token", "<unk>"), fuse_unk=True,
                               byte_fallback=True)
    data["normalizer"] = None
    data["pre_tokenizer"] = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": scheme, "split": False}
    data["decoder"] = {"type": "Sequence", "decoders": [*_SPACE_BYTES_DECODERS, _STRIP_ONE_SPACE]}
    return data


def gemma(config: Config, data: Data, lowercase: bool = False) -> Data:
    """GemmaTokenizer (Siglip2Tokenizer adds lowercasing): spaces become "▁" before a split after each one."""
    data["model"] = _bpe_model(data, unk_token=role(config, "unk_token", "<unk>"), fuse_unk=True,
                               byte_fallback=True)
    replace = {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}
    data["normalizer"] = {"type": "Sequence", "normalizers": [{"type": "Lowercase"}, replace]} if lowercase \
        else replace
    data["pre_tokenizer"] = {"type": "Split", "pattern": {"String": " "}, "behavior": "MergedWithPrevious",
                             "invert": False}
    data["decoder"] = {"type": "Sequence", "decoders": list(_SPACE_BYTES_DECODERS)}
    return data


# The split patterns of transformers' Qwen classes (their PRETOKENIZE_REGEX).
QWEN2_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                 r"|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN3_5_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}"
                   r"| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")


def qwen(config: Config, data: Data, pattern: str = QWEN2_PATTERN) -> Data:
    """Qwen2Tokenizer, Qwen3_5Tokenizer: NFC, their split pattern, then ByteLevel without its own regex."""
    data["model"] = _plain_byte_level_bpe(data)
    data["normalizer"] = {"type": "NFC"}
    split = {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        split, _byte_level_dict(_add_prefix_space(config, False), use_regex=False)]}
    data["decoder"] = _byte_level_dict(True)
    return data


def cohere(config: Config, data: Data) -> Data:
    """CohereTokenizer: NFC, single digits, then GPT-2's ByteLevel."""
    add_prefix_space = _add_prefix_space(config, False)
    data["model"] = _plain_byte_level_bpe(data)
    data["normalizer"] = {"type": "NFC"}
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "Digits", "individual_digits": True}, _byte_level_dict(add_prefix_space)]}
    data["decoder"] = _byte_level_dict(add_prefix_space)
    return data


def gpt_neox(config: Config, data: Data) -> Data:
    """GPTNeoXTokenizer: NFC, then GPT-2's ByteLevel (add_prefix_space, trim_offsets from the config)."""
    data["model"] = _plain_byte_level_bpe(data)
    data["normalizer"] = {"type": "NFC"}
    data["pre_tokenizer"] = _byte_level_dict(_add_prefix_space(config, False),
                                             trim_offsets=bool(config.get("trim_offsets", True)))
    data["decoder"] = _byte_level_dict(True)
    return data


def _sentencepiece_unigram(config: Config, data: Data, unk_id: int, normalizer: Data | None) -> Data:
    """The Unigram classes' shared parts: a fixed unk id, WhitespaceSplit then Metaspace (prepending "▁"
    unless add_prefix_space is off), and Metaspace's decoder."""
    scheme = "always" if config.get("add_prefix_space", True) else "never"
    data["model"] = {"type": "Unigram", "unk_id": unk_id, "vocab": data["model"].get("vocab", []),
                     "byte_fallback": False}
    data["normalizer"] = normalizer
    metaspace = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": scheme, "split": True}
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, metaspace]}
    data["decoder"] = dict(metaspace)
    return data


def tipsv2(config: Config, data: Data) -> Data:
    """Tipsv2Tokenizer: BPE with byte fallback (no unk token), lowercasing (do_lower_case) and the file's Precompiled
    map, WhitespaceSplit + Metaspace always, Metaspace's decoder then bytes fused; the file's post-processor stays."""
    data["model"] = _bpe_model(data, fuse_unk=True, byte_fallback=True)
    precompiled = _precompiled_only(data.get("normalizer"))
    steps = ([{"type": "Lowercase"}] if config.get("do_lower_case", True) else []) + ([precompiled] if precompiled else [])
    data["normalizer"] = {"type": "Sequence", "normalizers": steps}
    metaspace = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True}
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, metaspace]}
    data["decoder"] = {"type": "Sequence", "decoders": [dict(metaspace), {"type": "ByteFallback"}, {"type": "Fuse"}]}
    return data


def reformer(config: Config, data: Data) -> Data:
    """ReformerTokenizer: BPE with a named unk, the file's Precompiled map then runs of spaces folded (no
    normalizer without a map), Metaspace always; the file's post-processor stays."""
    precompiled = _precompiled_only(data.get("normalizer"))
    data["model"] = _bpe_model(data, unk_token=role(config, "unk_token", "<unk>"), fuse_unk=True)
    data["normalizer"] = {"type": "Sequence", "normalizers": [
        precompiled, {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]} if precompiled else None
    metaspace = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True}
    data["pre_tokenizer"] = metaspace
    data["decoder"] = dict(metaspace)
    return data


def t5(config: Config, data: Data, own_template: bool = True) -> Data:
    """T5Tokenizer (VideoPrismTokenizer keeps the file's post-processor): Unigram (unk id 2), the file's
    Precompiled map, Metaspace always, "$A </s>" template."""
    data = _sentencepiece_unigram({}, data, 2, _precompiled_only(data.get("normalizer")))
    return t5_post_processor(config, data) if own_template else data


def lasr(config: Config, data: Data) -> Data:
    """LasrTokenizer: T5's pipeline with unk id 3 (its decode collapses CTC output: CTC_DECODE_CLASSES)."""
    data = _sentencepiece_unigram({}, data, 3, _precompiled_only(data.get("normalizer")))
    return t5_post_processor(config, data)


def _unk_position(data: Data, unk: str | None, score: float | None = None, default: int = 0, start: int = 0) -> int:
    """The position of the unknown token in a Unigram vocabulary (with that score, if given; from `start`),
    else `default`."""
    for index, entry in enumerate(data["model"].get("vocab", [])):
        if index >= start and entry[0] == unk and (score is None or entry[1] == score):
            return index
    return default


def camembert(config: Config, data: Data) -> Data:
    """CamembertTokenizer: XLM-R's pipeline with the unk id where the unk token is (else 0)."""
    return xlm_roberta(config, data, _unk_position(data, role(config, "unk_token", "<unk>")))


def xlm_roberta(config: Config, data: Data, unk_id: int = 3) -> Data:
    """XLMRobertaTokenizer: Unigram (unk id 3), the file's Precompiled map, "<s> $A </s>" and
    "<s> $A </s> </s> $B </s>" (every type id 0) with the config's bos and eos."""
    data = _sentencepiece_unigram(config, data, unk_id, _precompiled_only(data.get("normalizer")))
    bos, eos = role(config, "bos_token", "<s>"), role(config, "eos_token", "</s>")
    data["post_processor"] = template([bos, "$A", eos], [bos, "$A", eos, eos, "$B", eos], [bos, eos], data)
    return data


def mluke(config: Config, data: Data) -> Data:
    """MLukeTokenizer (on plain text): Unigram with unk id 0, `` and '' turned into ", Metaspace always (split),
    "<s> $A </s>" and "<s> $A </s> </s> $B:1 </s>:1"; the file's Precompiled map is dropped."""
    quotes = [{"type": "Replace", "pattern": {"String": quote}, "content": '"'} for quote in ("``", "''")]
    data = _metaspace_unigram(data, 0, {"type": "Sequence", "normalizers": quotes}, "always")
    cls, sep = role(config, "cls_token", "<s>"), role(config, "sep_token", "</s>")
    data["post_processor"] = template([f"{cls}:0", "$A:0", f"{sep}:0"],
                                      [f"{cls}:0", "$A:0", f"{sep}:0", f"{sep}:0", "$B:1", f"{sep}:1"], [cls, sep], data)
    return data


def pegasus(config: Config, data: Data) -> Data:
    """PegasusTokenizer: Unigram (the unk id where "<unk>" scored 0 is, from position 1), the file's Precompiled
    map then runs of spaces folded (newlines to spaces without a map), Metaspace always, "$A </s>"."""
    unk, eos = role(config, "unk_token", "<unk>"), role(config, "eos_token", "</s>")
    fold = {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}
    precompiled = _precompiled_only(data.get("normalizer"))
    first = precompiled or {"type": "Replace", "pattern": {"Regex": "\n"}, "content": " "}
    unk_id = _unk_position(data, unk, 0.0, -1, start=1)
    if unk_id < 0:
        raise FormatError(f"PegasusTokenizer looks for ({unk!r}, 0.0) after the vocabulary's first piece and "
                          "there is none (transformers refuses this file too)", field="model.vocab")
    data = _metaspace_unigram(data, unk_id, {"type": "Sequence", "normalizers": [first, fold]}, "always")
    data["post_processor"] = template(["$A:0", f"{eos}:0"], ["$A:0", "$B:0", f"{eos}:0"], [eos], data)
    return data


def big_bird(config: Config, data: Data) -> Data:
    """BigBirdTokenizer: Unigram (the unk id where the unk token scored 0 is, else 100), runs of spaces to one
    "▁" (no Precompiled map), Metaspace alone, "[CLS] $A [SEP]"."""
    unk_id = _unk_position(data, role(config, "unk_token", "<unk>"), 0.0, 100)
    steps = [{"type": "Strip", "strip_left": False, "strip_right": False},
             {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": "▁"}]
    scheme = "always" if config.get("add_prefix_space", True) else "never"
    data = _metaspace_unigram(data, unk_id, {"type": "Sequence", "normalizers": steps}, scheme)
    return albert_post_processor(config, data)


def _prefix_scheme(config: Config) -> str:
    """Metaspace's prepend scheme of the classes with a plain add_prefix_space (default on)."""
    return "always" if config.get("add_prefix_space", True) else "never"


def barthez(config: Config, data: Data) -> Data:
    """BarthezTokenizer: Unigram (unk id 3), runs of whitespace to one space, NFC, a right strip, Metaspace alone;
    the file's post-processor stays."""
    return _metaspace_unigram(data, 3, {"type": "Sequence", "normalizers": list(_SPACE_NFC_STRIP)}, _prefix_scheme(config))


def xglm(config: Config, data: Data) -> Data:
    """XGLMTokenizer: Unigram (unk id 3), the file's Precompiled map then runs of spaces folded, Metaspace alone,
    "</s> $A" / "</s> $A </s> </s> $B"."""
    precompiled = _precompiled_only(data.get("normalizer"))
    steps = [*([precompiled] if precompiled else []), {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]
    data = _metaspace_unigram(data, 3, {"type": "Sequence", "normalizers": steps}, _prefix_scheme(config))
    eos = role(config, "eos_token", "</s>")
    data["post_processor"] = template([eos, "$A"], [eos, "$A", eos, eos, "$B"], [eos], data)
    return data


def rembert(config: Config, data: Data) -> Data:
    """RemBertTokenizer: Unigram (unk id 2) after quote folding, runs of spaces folded, accent stripping (only
    without keep_accents), lowercasing (do_lower_case) and the file's Precompiled map, Metaspace alone,
    "[CLS] $A [SEP]"."""
    steps = _quotes_accents_case(data, not config.get("keep_accents", True), config.get("do_lower_case", False))
    steps["normalizers"].insert(2, {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "})
    data = _metaspace_unigram(data, 2, steps, _prefix_scheme(config))
    return albert_post_processor(config, data)


def _metaspace_unigram(data: Data, unk_id: int, normalizer: Data, scheme: str) -> Data:
    """A Unigram model behind a normalizer and a Metaspace pre-tokenizer and decoder (no whitespace split)."""
    data["model"] = {"type": "Unigram", "unk_id": unk_id, "vocab": data["model"].get("vocab", []),
                     "byte_fallback": False}
    data["normalizer"] = normalizer
    data["pre_tokenizer"] = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": scheme, "split": True}
    data["decoder"] = dict(data["pre_tokenizer"])
    return data


LANGUAGE_CODES_FILE = Path(__file__).with_name("language_codes.json")


@lru_cache(maxsize=1)
def language_codes() -> dict[str, Any]:
    """language_codes.json: the language codes MBart, MBart50 and NLLB add as special tokens, in their order."""
    return json.loads(LANGUAGE_CODES_FILE.read_text(encoding="utf-8"))


def _tokens_after_loading(config: Config, data: Data, name: str) -> set[str]:
    """The tokens a language-code class will know: the file's, the config's extra special tokens, else its codes."""
    given = [config.get(key) or [] for key in ("additional_special_tokens", "extra_special_tokens")]
    extras = [token_text(t) for value in given for t in (value.values() if isinstance(value, dict) else value)]
    return set(token_ids(data)) | set(extras or language_codes().get(name, []))


def _language_template(config: Config, data: Data, name: str, default_language: str, language_first: bool) -> Data:
    """The source-language template: "<lang> $A </s>" (language_first) or "$A </s> <lang>"; pairs put $B
    after $A (every type id 0)."""
    language, eos = config.get("src_lang") or default_language, role(config, "eos_token", "</s>")
    if language not in _tokens_after_loading(config, data, name):
        language = role(config, "unk_token", "<unk>")  # transformers' id of an unknown token, and its text
    before, after = ([language], [eos]) if language_first else ([], [eos, language])
    data["post_processor"] = template([*before, "$A", *after], [*before, "$A", "$B", *after], [language, eos], data)
    return data


def mbart(config: Config, data: Data) -> Data:
    """MBartTokenizer: Unigram (unk id 3) without a normalizer, WhitespaceSplit + Metaspace always,
    "$A </s> <src_lang>" (en_XX by default)."""
    data = _sentencepiece_unigram({}, data, 3, None)
    return _language_template(config, data, "MBartTokenizer", "en_XX", language_first=False)


def mbart50(config: Config, data: Data) -> Data:
    """MBart50Tokenizer: Unigram (unk id 3), the file's Precompiled map then runs of spaces folded, Metaspace
    always, "<src_lang> $A </s>" (en_XX by default)."""
    codes = language_codes()["MBart50Tokenizer"]
    vocab = data["model"].get("vocab", [])
    if not set(codes) & {entry[0] for entry in vocab}:
        # transformers rebuilds a vocabulary without language codes: its four specials over the file's
        # first three pieces, then the codes and the mask at the end.
        roles = [role(config, key, default) for key, default in
                 (("cls_token", "<s>"), ("pad_token", "<pad>"), ("eos_token", "</s>"), ("unk_token", "<unk>"))]
        data["model"]["vocab"] = [[token, 0.0] for token in roles] + [list(entry) for entry in vocab[3:]] + \
            [[code, 0.0] for code in codes] + [[role(config, "mask_token", "<mask>"), 0.0]]
    precompiled = _precompiled_only(data.get("normalizer"))
    fold = {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}
    data = _metaspace_unigram(data, 3, {"type": "Sequence", "normalizers": [*([precompiled] if precompiled else []),
                                                                             fold]}, "always")
    return _language_template(config, data, "MBart50Tokenizer", "en_XX", language_first=True)


def nllb(config: Config, data: Data) -> Data:
    """NllbTokenizer: Reformer's pipeline, and "<src_lang> $A </s>" (eng_Latn by default; "$A </s> <src_lang>"
    with legacy_behaviour)."""
    return _language_template(config, reformer(config, data), "NllbTokenizer", "eng_Latn", language_first=not config.get("legacy_behaviour", False))


# DeBERTa-v2's and Barthez's normalizer: runs of whitespace (and each newline or tab) to one space, NFC, right strip.
_SPACE_NFC_STRIP: list[Data] = [{"type": "Replace", "pattern": {"Regex": r"\s{2,}|[\n\r\t]"}, "content": " "},
                                {"type": "NFC"}, {"type": "Strip", "strip_left": False, "strip_right": True}]


def seamless_m4t(config: Config, data: Data) -> Data:
    """SeamlessM4TTokenizer: BPE with a named unk, its whitespace/NFKC/"▁" normalizer, Metaspace "first",
    "__<src_lang>__ $A </s>" (__eng__ by default; the unk token when the vocabulary lacks it)."""
    data["model"] = _bpe_model(data, unk_token=role(config, "unk_token", "<unk>"), fuse_unk=True)

    def replace(pattern: str, content: str) -> Data:
        return {"type": "Replace", "pattern": {"Regex": pattern}, "content": content}

    data["normalizer"] = {"type": "Sequence", "normalizers": [
        replace(r"[\n\r\t]", " "), {"type": "NFKC"}, {"type": "Strip", "strip_left": False, "strip_right": True},
        replace(" +▁", "▁"), replace("^▁+$", ""), replace(" {2,}", "▁")]}
    data["pre_tokenizer"] = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True}
    data["decoder"] = dict(data["pre_tokenizer"])
    language = str(config.get("src_lang") or "eng")
    language = language if "__" in language else f"__{language}__"
    return _language_template({**config, "src_lang": language}, data, "SeamlessM4TTokenizer", language,
                              language_first=True)


def deberta_v2(config: Config, data: Data) -> Data:
    """DebertaV2Tokenizer: Unigram (the unk id of the piece "[UNK]" scored 0, else the config's unk_id), runs
    of whitespace to one space, NFC and a right strip (no Precompiled map), optional lowercasing and
    punctuation split, Metaspace ("always", or "first" without add_prefix_space), "[CLS] $A [SEP]"."""
    unk = role(config, "unk_token", "[UNK]")
    scored = [i for i, entry in enumerate(data["model"].get("vocab", [])) if list(entry) == [unk, 0.0]]
    unk_id = scored[0] if scored else int(config.get("unk_id", 1))
    steps: list[Data] = [{"type": "Lowercase"}] if config.get("do_lower_case", False) else []
    steps += _SPACE_NFC_STRIP
    scheme = "always" if config.get("add_prefix_space", True) else "first"
    metaspace = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": scheme, "split": True}
    split = [{"type": "Punctuation", "behavior": "Isolated"}] if config.get("split_by_punct", False) else []
    data["model"] = {"type": "Unigram", "unk_id": unk_id, "vocab": data["model"].get("vocab", []),
                     "byte_fallback": False}
    data["normalizer"] = {"type": "Sequence", "normalizers": steps}
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [*split, metaspace]}
    data["decoder"] = dict(metaspace)
    return albert_post_processor(config, data)


def albert(config: Config, data: Data) -> Data:
    """AlbertTokenizer: Unigram (unk id 1) after quote folding, accent stripping (unless keep_accents),
    lowercasing (do_lower_case) and the file's Precompiled map; the file's post-processor stays, and
    only a file without one gets "[CLS] $A [SEP]"."""
    steps = _quotes_accents_case(data, not config.get("keep_accents", False), config.get("do_lower_case", True))
    data = _sentencepiece_unigram(config, data, 1, steps)
    return data if data.get("post_processor") else albert_post_processor(config, data)


def xlnet(config: Config, data: Data) -> Data:
    """XLNetTokenizer: ALBERT's normalizer with accents always stripped and no lowercasing unless do_lower_case,
    Unigram (the config's unk_id, else 0), Metaspace always, "$A <sep> <cls>:2"."""
    steps = _quotes_accents_case(data, True, config.get("do_lower_case", False))
    data = _sentencepiece_unigram({}, data, int(config.get("unk_id", 0)), steps)
    return xlnet_post_processor(config, data)


def _quotes_accents_case(data: Data, strip_accents: bool, lowercase: bool) -> Data:
    """ALBERT's and XLNet's normalizer: `` and '' to ", NFKD + StripAccents, Lowercase, the file's Precompiled map."""
    steps: list[Data] = [{"type": "Replace", "pattern": {"String": quotes}, "content": '"'} for quotes in ("``", "''")]
    steps += [{"type": "NFKD"}, {"type": "StripAccents"}] if strip_accents else []
    steps += [{"type": "Lowercase"}] if lowercase else []
    precompiled = _precompiled_only(data.get("normalizer"))
    steps += [precompiled] if precompiled else []
    return {"type": "Sequence", "normalizers": steps}


def t5_post_processor(config: Config, data: Data) -> Data:
    """T5's "$A </s>" / "$A </s> $B </s>" (every type id 0)."""
    data["post_processor"] = template(["$A", "</s>"], ["$A", "</s>", "$B", "</s>"], ["</s>"], data)
    return data


def albert_post_processor(config: Config, data: Data) -> Data:
    """ALBERT's (and DeBERTa-v2's) "[CLS] $A [SEP]" / "... $B:1 [SEP]:1"."""
    cls, sep = role(config, "cls_token", "[CLS]"), role(config, "sep_token", "[SEP]")
    data["post_processor"] = template([f"{cls}:0", "$A:0", f"{sep}:0"],
                                      [f"{cls}:0", "$A:0", f"{sep}:0", "$B:1", f"{sep}:1"], [cls, sep], data)
    return data


def xlnet_post_processor(config: Config, data: Data) -> Data:
    """XLNet's "$A <sep> <cls>:2" / "$A <sep> $B:1 <sep>:1 <cls>:2"."""
    cls, sep = role(config, "cls_token", "<cls>"), role(config, "sep_token", "<sep>")
    data["post_processor"] = template(["$A:0", f"{sep}:0", f"{cls}:2"],
                                      ["$A:0", f"{sep}:0", "$B:1", f"{sep}:1", f"{cls}:2"], [cls, sep], data)
    return data


def python_sentencepiece(config: Config, data: Data, eos_after: bool) -> Data:
    """A SentencePieceBackend class (transformers' Python tokenizer running sentencepiece on its .model): its
    decode joins the pieces, turns "▁" into spaces and strips the text (DECODED_TEXT_REWRITES), with no byte
    fallback; `eos_after`: "$A </s>" / "$A $B </s>" all of type 0 (SpeechT5), else no special tokens and type id
    1 for $B (BertGeneration)."""
    data["decoder"] = {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
                                                        {"type": "Fuse"}]}
    eos = role(config, "eos_token", "</s>") if eos_after else None
    ends = [eos] if eos else []
    data["post_processor"] = template(["$A", *ends], ["$A", "$B" if eos_after else "$B:1", *ends], ends, data)
    return data


# GPTSw3Tokenizer's preprocess_text: control and other non-printing characters dropped, its whitespace characters
# turned into spaces, NFC.
GPT_SW3_NON_PRINTING = "".join(map(chr, [*range(0, 9), *range(11, 32), *range(127, 160), 160, 173, 8203]))
GPT_SW3_SPACES = "\u2002\u2003\u2005\u2008\u2009\u200a\u202f\u3000\ufffc"


def gpt_sw3(config: Config, data: Data) -> Data:
    """GPTSw3Tokenizer: its preprocess_text before the model's own normalizer, sentencepiece's decode, no special
    tokens and type id 1 for $B."""
    steps = [{"type": "Replace", "pattern": {"Regex": f"[{re.escape(GPT_SW3_NON_PRINTING)}]"}, "content": ""},
             {"type": "Replace", "pattern": {"Regex": f"[{GPT_SW3_SPACES}]"}, "content": " "}, {"type": "NFC"}]
    normalizer = data.get("normalizer")
    if normalizer:
        steps += normalizer["normalizers"] if normalizer.get("type") == "Sequence" else [normalizer]
    data["normalizer"] = {"type": "Sequence", "normalizers": steps}
    data["post_processor"] = template(["$A"], ["$A", "$B:1"], [], data)
    return data


def python_sentencepiece_rules(config: Config) -> list[str]:
    """What a SentencePieceBackend class does, under the config's options, that hfcompat does not."""
    rules = []
    if config.get("legacy", True) is False:
        rules.append("drops the model's dummy prefix and encodes a text starting with a space after its unk token "
                     "(legacy false)")
    if config.get("normalize"):
        rules.append("spells out English numbers (EnglishNumberNormalizer) before sentencepiece (normalize true)")
    if config.get("sp_model_kwargs"):
        rules.append("passes sp_model_kwargs (sampling options) to sentencepiece")
    return rules


def backend_sentencepiece(data: Data, byte_fallback: bool, dummy_prefix: bool, specials: dict[str, int]) -> Data:
    """What TokenizersBackend (transformers 5.24) keeps of a SentencePiece model beside its encoding: a plain
    decoder ("▁" to spaces, bytes, one leading space stripped) and the model's bos, eos and unk pieces
    (`specials`, token -> id) as special added tokens, so decode shows "<unk>" and skip_special_tokens drops them."""
    steps = [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}]
    steps += [{"type": "ByteFallback"}] if byte_fallback else []
    if dummy_prefix:
        steps += [{"type": "Fuse"}, _STRIP_ONE_SPACE]
    elif byte_fallback:
        steps.append({"type": "Fuse"})
    data["decoder"] = {"type": "Sequence", "decoders": steps}
    added = data.setdefault("added_tokens", [])
    present = {entry["content"] for entry in added}
    added += [{"id": token_id, "content": token, "single_word": False, "lstrip": False, "rstrip": False,
               "normalized": False, "special": True} for token, token_id in specials.items() if token not in present]
    return data


def _precompiled_only(normalizer: Data | None) -> Data | None:
    """The first Precompiled normalizer of a normalizer dict (T5 keeps only that), or None."""
    if not normalizer:
        return None
    inner = normalizer.get("normalizers", [normalizer]) if normalizer.get("type") == "Sequence" else [normalizer]
    return next((n for n in inner if n.get("type") == "Precompiled" and n.get("precompiled_charsmap")), None)


# ---------------------------------------------------------------- the table of classes

# class name (without a "Fast" suffix) -> the pipeline it builds; classes that build the same share a builder.
def _byte_rule(config: Config, defaults: tuple[tuple[str, str], ...], strip: bool, errors: str) -> tuple[Data, list[str]]:
    """A byte class's pipeline (models/utf8_bytes.py) without its post-processor, and its role tokens in id order:
    the roles (config's, else `defaults`) at ids 0, 1, ..., byte b after them; decode with `errors`."""
    roles = [role(config, key, default) for key, default in defaults]
    data = {"model": UTF8Bytes(len(roles), {token: index for index, token in enumerate(roles)}),
            "decoder": ByteChars(errors),
            "added_tokens": [{"id": index, "content": token, "single_word": False, "lstrip": strip, "rstrip": strip,
                              "normalized": True, "special": True} for index, token in enumerate(roles)]}
    return data, roles


def byt5(config: Config, data: Data) -> Data:
    """ByT5Tokenizer (no files read): pad, eos, unk at ids 0, 1, 2, taking the spaces around them, then byte b at
    b + 3; eos after each sequence unless it ends with it; decode drops invalid UTF-8.
    The model, decoder and post-processor are hfcompat's own objects: no tokenizer.json holds them."""
    data, roles = _byte_rule(config, (("pad_token", "<pad>"), ("eos_token", "</s>"), ("unk_token", "<unk>")),
                             strip=True, errors="ignore")
    data["post_processor"] = ByT5Processing(roles[1], 1, dict(enumerate(roles)))
    return data


def dia(config: Config, data: Data) -> Data:
    """DiaTokenizer (no files read): <pad> (special), [S1], [S2] at ids 0, 1, 2 and byte b at b + offset (0 by
    default, so bytes 0-2 share their ids and read back as those tokens); no special tokens around a sequence;
    decode joins the token strings as they are (a byte above 0x7F comes back as its Latin-1 character)."""
    pad = role(config, "pad_token", "<pad>")
    return {"model": UTF8Bytes(int(config.get("offset", 0)), {pad: 0, "[S1]": 1, "[S2]": 2}),
            "decoder": {"type": "Fuse"}, "post_processor": ByT5Processing(None, 0, {0: pad, 1: "[S1]", 2: "[S2]"}),
            "added_tokens": [{"id": index, "content": token, "single_word": False, "lstrip": False, "rstrip": False,
                              "normalized": True, "special": token == pad}
                             for index, token in enumerate((pad, "[S1]", "[S2]"))]}


def perceiver(config: Config, data: Data) -> Data:
    """PerceiverTokenizer (no files read): [PAD] [BOS] [EOS] [MASK] [CLS] [SEP] at ids 0-5, byte b at b + 6;
    "[CLS] $A [SEP]", pairs "[CLS] $A [SEP] $B:1 [SEP]:1"; decode writes U+FFFD for invalid UTF-8."""
    data, roles = _byte_rule(config, (("pad_token", "[PAD]"), ("bos_token", "[BOS]"), ("eos_token", "[EOS]"),
                                      ("mask_token", "[MASK]"), ("cls_token", "[CLS]"), ("sep_token", "[SEP]")),
                             strip=False, errors="replace")
    cls, sep = roles[4], roles[5]
    data["post_processor"] = {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": cls, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                   {"SpecialToken": {"id": sep, "type_id": 0}}],
        "pair": [{"SpecialToken": {"id": cls, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                 {"SpecialToken": {"id": sep, "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}},
                 {"SpecialToken": {"id": sep, "type_id": 1}}],
        "special_tokens": {token: {"id": token, "ids": [index], "tokens": [token]}
                           for index, token in ((4, cls), (5, sep))}}
    return data


def canine(config: Config, data: Data) -> Data:
    """CanineTokenizer (no files read): each character is one token, id its code point (models/code_points.py);
    its roles are private-use characters added as special tokens (the mask's lstrip has no effect there);
    "[CLS] $A [SEP]", pairs "... $B [SEP]", type ids all 0; decode joins the tokens."""
    roles = {key: role(config, key, default) for key, default in DEFAULT_ROLES["CanineTokenizer"].items()}
    cls, sep = roles["cls_token"], roles["sep_token"]
    ids = {token: ord(token) if len(token) == 1 else None for token in (cls, sep)}
    items = [{"SpecialToken": {"id": cls, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
             {"SpecialToken": {"id": sep, "type_id": 0}}]
    return {"model": CodePoints(), "decoder": {"type": "Fuse"},
            "post_processor": {"type": "TemplateProcessing", "single": items,
                               "pair": items + [{"Sequence": {"id": "B", "type_id": 0}}, items[-1]],
                               "special_tokens": {token: {"id": token, "ids": [index], "tokens": [token]}
                                                  for token, index in ids.items()}},
            # An added token's id is its code point (or the next free id): loading assigns it, not "id".
            "added_tokens": [{"id": 0, "content": token, "single_word": False, "lstrip": False, "rstrip": False,
                              "normalized": False, "special": True} for token in roles.values() if token]}


CLASSES: dict[str, Callable[[Config, Data], Data]] = {
    **dict.fromkeys(("BertTokenizer", "DPRQuestionEncoderTokenizer", "LxmertTokenizer", "MobileBertTokenizer"),
                    bert),
    "FunnelTokenizer": partial(bert, roles=("<unk>", "<cls>", "<sep>"), cls_type_id=2),
    "MPNetTokenizer": mpnet,
    "OpenAIGPTTokenizer": openai_gpt,
    "HerbertTokenizer": herbert,
    "SplinterTokenizer": splinter,
    "NougatTokenizer": nougat,
    "GPT2Tokenizer": gpt2,
    "BlenderbotTokenizer": partial(gpt2, prefix_space=True),
    "ReformerTokenizer": reformer,
    "Tipsv2Tokenizer": tipsv2,
    **dict.fromkeys(("RobertaTokenizer", "BartTokenizer", "LEDTokenizer", "MvpTokenizer"), roberta),
    "LukeTokenizer": luke,
    "MLukeTokenizer": mluke,
    "CLIPTokenizer": clip,
    "WhisperTokenizer": whisper,
    "LlamaTokenizer": llama,
    "CodeLlamaTokenizer": code_llama,
    "GemmaTokenizer": gemma,
    "Siglip2Tokenizer": partial(gemma, lowercase=True),
    "Qwen2Tokenizer": qwen,
    "Qwen3_5Tokenizer": partial(qwen, pattern=QWEN3_5_PATTERN),
    "CohereTokenizer": cohere,
    "GPTNeoXTokenizer": gpt_neox,
    "T5Tokenizer": t5,
    "LasrTokenizer": lasr,
    "VideoPrismTokenizer": partial(t5, own_template=False),
    "XLMRobertaTokenizer": xlm_roberta,
    "CamembertTokenizer": camembert,
    "BarthezTokenizer": barthez,
    "XGLMTokenizer": xglm,
    "RemBertTokenizer": rembert,
    "DebertaTokenizer": deberta,
    "MBartTokenizer": mbart,
    "MBart50Tokenizer": mbart50,
    "NllbTokenizer": nllb,
    "SeamlessM4TTokenizer": seamless_m4t,
    "PegasusTokenizer": pegasus,
    "BigBirdTokenizer": big_bird,
    "AlbertTokenizer": albert,
    "XLNetTokenizer": xlnet,
    "DebertaV2Tokenizer": deberta_v2,
    "ByT5Tokenizer": byt5,
    "PerceiverTokenizer": perceiver,
    "CanineTokenizer": canine,
    "DiaTokenizer": dia,
}
# Classes a loader of their own reads before this table: MistralCommonBackend (mistral_common.py: tekken.json or a
# SentencePiece model, as mistral-common reads them).
OWN_LOADER_CLASSES = {"MistralCommonBackend"}
# Classes that read no file at all: they build their vocabulary by a rule from their special tokens.
BY_RULE_CLASSES = {"ByT5Tokenizer", "PerceiverTokenizer", "CanineTokenizer", "DiaTokenizer"}
# The classic vocabulary file each class reads when a directory has no tokenizer.json (its vocab_files_names;
# vocab.json comes with merges.txt). From other files transformers builds the class with its special tokens alone.
VOCAB_FILES: dict[str, str] = {
    **dict.fromkeys((name for name, build in CLASSES.items() if getattr(build, "func", build) in (bert, mpnet, splinter)),
                    "vocab.txt"),
    **dict.fromkeys(("GPT2Tokenizer", "CLIPTokenizer", "WhisperTokenizer", "OpenAIGPTTokenizer", "RobertaTokenizer", "BartTokenizer", "LEDTokenizer", "MvpTokenizer", "LukeTokenizer",
                     "Qwen2Tokenizer", "CohereTokenizer", "GPTNeoXTokenizer"), "vocab.json"),
}
# Classes whose pipeline over a SentencePiece model differs from sentencepiece in runs of spaces only.
SENTENCEPIECE_SPACING_CLASSES = {"LlamaTokenizer", "CodeLlamaTokenizer", "T5Tokenizer"}
# Classes that take tokenizer.json as it is: the base classes, and subclasses without a constructor of
# their own (transformers hands them the file). A class transformers does not know at all is loaded as
# TokenizersBackend, so it takes the file as it is too.
# Classes whose decode collapses CTC output first: each run of equal ids becomes one and the pad id is dropped.
CTC_DECODE_CLASSES = {"ParakeetTokenizer", "LasrTokenizer"}
AS_IS_CLASSES = {"TokenizersBackend", "PreTrainedTokenizerFast", "HfcompatTokenizer", "FNetTokenizer",
                 "BloomTokenizer", "ParakeetTokenizer"}
# The class whose directory transformers loads as TokenizersBackend when tokenizer.json is byte-level
# (its text holds "ByteLevel" anywhere): the class hard-codes Metaspace, which such a file never meant.
BYTE_LEVEL_MEANS_AS_IS = {"LlamaTokenizer"}
# Classes that always rebuild the bos/eos template, and the add_bos_token/add_eos_token they assume
# (transformers drops the config's flags when tokenizer.json is there).
TEMPLATE_FLAGS: dict[str, tuple[bool, bool]] = {"CodeLlamaTokenizer": (True, False), "GPTNeoXTokenizer": (False, False)}
_LUKE_ENTITY_TOKENS = {"entity_1_token": "<ent>", "entity_2_token": "<ent2>", "entity_unk_token": "[UNK]",
                       "entity_pad_token": "[PAD]", "entity_mask_token": "[MASK]", "entity_mask2_token": "[MASK2]"}
# Special tokens a class adds besides its roles: config key -> the class default (a null in the config: none).
CLASS_EXTRA_TOKENS: dict[str, dict[str, str]] = {
    "CodeLlamaTokenizer": {"prefix_token": "▁<PRE>", "middle_token": "▁<MID>", "suffix_token": "▁<SUF>",
                           "eot_token": "▁<EOT>", "fill_token": "<FILL_ME>"},
    "SplinterTokenizer": {"question_token": "[QUESTION]"},
    "ProphetNetTokenizer": {"x_sep_token": "[X_SEP]"},
    "CpmAntTokenizer": {"bod_token": "<d>", "eod_token": "</d>"},
    "LukeTokenizer": _LUKE_ENTITY_TOKENS,
    "MLukeTokenizer": {**_LUKE_ENTITY_TOKENS, "entity_1_token": "▁<ent>", "entity_2_token": "▁<ent2>"},
}
# The additional_special_tokens a class adds when the config gives none.
DEFAULT_ADDITIONAL_SPECIALS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("XLNetTokenizer", "CpmTokenizer"), ("<eop>", "<eod>")), "CamembertTokenizer": ("<s>NOTUSED", "</s>NOTUSED", "<unk>NOTUSED"),
    **dict.fromkeys(("XLMTokenizer", "FlaubertTokenizer"), tuple(f"<special{i}>" for i in range(10)))}

# What a class hfcompat builds still does on some texts or calls that hfcompat does not: the config key that turns
# it off (null there; None: nothing does), and what transformers does.
CLASS_CALL_RULES: dict[str, tuple[str | None, str]] = {
    "CodeLlamaTokenizer": ("fill_token", "splits a text holding its fill token into a prefix and a suffix "
                                         "and encodes them in its infilling layout"),
    **dict.fromkeys(("LukeTokenizer", "MLukeTokenizer"), (None, "takes entity spans or entities beside a text (entity_spans=, entities=, task=) and then "
                            "adds entity_ids, entity_position_ids and their masks from entity_vocab.json")),
}

# What a class does to the decoded text: (Python regex, replacement, strip whitespace at both ends).
# CLIPTokenizer wraps the backend's decode; WhisperTokenizer drops the text of timestamp tokens.
DECODED_TEXT_REWRITES: dict[str, tuple[str, str, bool]] = {
    "CLIPTokenizer": (re.escape("</w>"), " ", True),
    "WhisperTokenizer": (r"<\|(\d+\.\d+)\|>", "", False),
    **dict.fromkeys(("BertGenerationTokenizer", "SpeechT5Tokenizer"), ("(?!)", "", True)),
}
# Classes whose decode runs sentencepiece on the pieces between special tokens apart, a space before the first
# special token after them (GPTSw3Tokenizer's convert_tokens_to_string).
DECODES_SPECIAL_TOKEN_RUNS = {"GPTSw3Tokenizer"}
# The SentencePieceBackend classes hfcompat builds: the .model file each reads (its vocab_files_names), never
# tokenizer.json.
PYTHON_SENTENCEPIECE_CLASSES: dict[str, str] = {"BertGenerationTokenizer": "spiece.model",
                                                "SpeechT5Tokenizer": "spm_char.model", "GPTSw3Tokenizer": "spiece.model"}

# What a class hfcompat builds still does in decode that hfcompat does not (said when it loads).
CLASS_DECODE_RULES: dict[str, str] = {
    "WhisperTokenizer": ("drops a leading prompt (the ids from <|startofprev|> up to <|startoftranscript|>) when "
                         "decoding with skip_special_tokens; hfcompat decodes the prompt's text"),
}

# Classes that add their special tokens again after loading (_post_init): an added token of the file that is
# one of them loses its own lstrip, rstrip and normalized flags.
READDS_SPECIALS = {"CohereTokenizer", "ReformerTokenizer", "MLukeTokenizer"}
# Roles whose token a class adds taking the spaces before it (AddedToken lstrip=True), when it is new.
LSTRIP_ROLES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("BlenderbotTokenizer", "MPNetTokenizer", "XLNetTokenizer", "CamembertTokenizer", "BigBirdTokenizer",
                     "MBartTokenizer", "MBart50Tokenizer", "NllbTokenizer", "BarthezTokenizer", "MLukeTokenizer", "CpmTokenizer"),
                    ("mask_token",))}

_BERT_ROLES = {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]",
               "mask_token": "[MASK]"}
_ROBERTA_ROLES = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "sep_token": "</s>",
                  "pad_token": "<pad>", "cls_token": "<s>", "mask_token": "<mask>"}
_LLAMA_ROLES = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}
_GEMMA_ROLES = {"bos_token": "<bos>", "eos_token": "<eos>", "unk_token": "<unk>", "pad_token": "<pad>",
                "mask_token": "<mask>"}
_QWEN_ROLES = {"eos_token": "<|endoftext|>", "unk_token": "<|endoftext|>", "pad_token": "<|endoftext|>"}
_ALBERT_ROLES = {"bos_token": "[CLS]", "eos_token": "[SEP]", "unk_token": "<unk>", "sep_token": "[SEP]",
                 "pad_token": "<pad>", "cls_token": "[CLS]", "mask_token": "[MASK]"}
# The special tokens each class declares when the config names none (its constructor defaults).
DEFAULT_ROLES: dict[str, dict[str, str]] = {
    **dict.fromkeys(("ByT5Tokenizer", "MyT5Tokenizer"), {"eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}),
    "DiaTokenizer": {"pad_token": "<pad>", "unk_token": "<pad>"},
    "CanineTokenizer": {"bos_token": "\ue000", "eos_token": "\ue001", "sep_token": "\ue001", "cls_token": "\ue000",
                        "pad_token": "\x00", "mask_token": "\ue003"},
    **dict.fromkeys(("XLMTokenizer", "FlaubertTokenizer"), {"unk_token": "<unk>", "bos_token": "<s>", "sep_token": "</s>",
                                                           "pad_token": "<pad>", "cls_token": "</s>",
                                                           "mask_token": "<special1>"}),
    "FSMTTokenizer": {"unk_token": "<unk>", "bos_token": "<s>", "sep_token": "</s>", "pad_token": "<pad>"},
    "BioGptTokenizer": {"bos_token": "<s>", "eos_token": "</s>", "sep_token": "</s>", "unk_token": "<unk>",
                        "pad_token": "<pad>"},
    "PerceiverTokenizer": {"pad_token": "[PAD]", "bos_token": "[BOS]", "eos_token": "[EOS]", "mask_token": "[MASK]",
                           "cls_token": "[CLS]", "sep_token": "[SEP]"},
    **dict.fromkeys(("BertTokenizer", "DPRQuestionEncoderTokenizer", "LxmertTokenizer", "MobileBertTokenizer",
                     "RoCBertTokenizer", "BertJapaneseTokenizer"), _BERT_ROLES),
    "ProphetNetTokenizer": {key: value for key, value in _BERT_ROLES.items() if key != "cls_token"},
    "FunnelTokenizer": {"unk_token": "<unk>", "sep_token": "<sep>", "pad_token": "<pad>", "cls_token": "<cls>",
                        "mask_token": "<mask>", "bos_token": "<s>", "eos_token": "</s>"},
    "MPNetTokenizer": {**_ROBERTA_ROLES, "unk_token": "[UNK]"},
    "OpenAIGPTTokenizer": {"unk_token": "<unk>"},
    "HerbertTokenizer": {"cls_token": "<s>", "unk_token": "<unk>", "pad_token": "<pad>", "mask_token": "<mask>",
                         "sep_token": "</s>"},
    "SplinterTokenizer": _BERT_ROLES,
    "NougatTokenizer": {"unk_token": "<unk>", "bos_token": "<s>", "eos_token": "</s>", "pad_token": "<pad>"},
    "GPT2Tokenizer": {"bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>", "unk_token": "<|endoftext|>"},
    **dict.fromkeys(("RobertaTokenizer", "BartTokenizer", "LEDTokenizer", "MvpTokenizer", "BlenderbotTokenizer",
                     "LukeTokenizer", "MLukeTokenizer"), _ROBERTA_ROLES),
    "ReformerTokenizer": {"eos_token": "</s>", "unk_token": "<unk>"},
    "Tipsv2Tokenizer": {"unk_token": "<unk>", "pad_token": "<pad>"},
    "WhisperTokenizer": {"bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>", "unk_token": "<|endoftext|>"},
    "CLIPTokenizer": {"bos_token": "<|startoftext|>", "eos_token": "<|endoftext|>", "unk_token": "<|endoftext|>",
                      "pad_token": "<|endoftext|>"},
    "LlamaTokenizer": _LLAMA_ROLES,
    "CodeLlamaTokenizer": _LLAMA_ROLES,
    "GemmaTokenizer": _GEMMA_ROLES,
    "Siglip2Tokenizer": _GEMMA_ROLES,
    "Qwen2Tokenizer": _QWEN_ROLES,
    "Qwen3_5Tokenizer": _QWEN_ROLES,
    "CohereTokenizer": {"bos_token": "<BOS_TOKEN>", "eos_token": "<|END_OF_TURN_TOKEN|>", "unk_token": "<UNK>",
                        "sep_token": "<SEP>", "pad_token": "<PAD>", "cls_token": "<CLS>", "mask_token": "<MASK_TOKEN>"},
    "GPTNeoXJapaneseTokenizer": {"unk_token": "<|endoftext|>", "pad_token": "<|endoftext|>",
                                 "bos_token": "<|startoftext|>", "eos_token": "<|endoftext|>"},
    "GPTNeoXTokenizer": {"bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>", "unk_token": "<|endoftext|>",
                         "pad_token": "<|padding|>"},
    **dict.fromkeys(("T5Tokenizer", "VideoPrismTokenizer"), {"eos_token": "</s>", "unk_token": "<unk>",
                                                             "pad_token": "<pad>"}),
    "XLMRobertaTokenizer": _ROBERTA_ROLES,
    "CamembertTokenizer": _ROBERTA_ROLES,
    "BarthezTokenizer": _ROBERTA_ROLES,
    "XGLMTokenizer": {key: value for key, value in _ROBERTA_ROLES.items() if key != "mask_token"},
    "RemBertTokenizer": _ALBERT_ROLES,
    "DebertaTokenizer": {"bos_token": "[CLS]", "eos_token": "[SEP]", "unk_token": "[UNK]", "sep_token": "[SEP]",
                         "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]"},
    **dict.fromkeys(("MBartTokenizer", "NllbTokenizer"), _ROBERTA_ROLES),
    "SeamlessM4TTokenizer": {key: value for key, value in _ROBERTA_ROLES.items() if key != "mask_token"},
    "MBart50Tokenizer": {key: value for key, value in _ROBERTA_ROLES.items() if key != "bos_token"},
    "PegasusTokenizer": {"pad_token": "<pad>", "eos_token": "</s>", "unk_token": "<unk>", "mask_token": "<mask_2>"},
    "BigBirdTokenizer": {"unk_token": "<unk>", "bos_token": "<s>", "eos_token": "</s>", "pad_token": "<pad>",
                         "sep_token": "[SEP]", "mask_token": "[MASK]", "cls_token": "[CLS]"},
    "AlbertTokenizer": _ALBERT_ROLES,
    "DebertaV2Tokenizer": {"bos_token": "[CLS]", "eos_token": "[SEP]", "unk_token": "[UNK]", "sep_token": "[SEP]",
                           "pad_token": "[PAD]", "cls_token": "[CLS]", "mask_token": "[MASK]"},
    "FNetTokenizer": _ALBERT_ROLES,
    "XLNetTokenizer": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "sep_token": "<sep>",
                       "pad_token": "<pad>", "cls_token": "<cls>", "mask_token": "<mask>"},
    "BertGenerationTokenizer": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>",
                                "sep_token": "<::::>"},
    "SpeechT5Tokenizer": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"},
    "GPTSw3Tokenizer": {"bos_token": "<s>", "eos_token": "<|endoftext|>", "unk_token": "<unk>", "pad_token": "<pad>"},
    "CTRLTokenizer": {"unk_token": "<unk>"},
    "ClvpTokenizer": {"unk_token": "[UNK]", "bos_token": "<|endoftext|>", "eos_token": "[STOP]", "pad_token": "[STOP]"},
    "BlenderbotSmallTokenizer": {"bos_token": "__start__", "eos_token": "__end__", "unk_token": "__unk__",
                                 "pad_token": "__null__"},
    **dict.fromkeys(("PhobertTokenizer", "BertweetTokenizer"), _ROBERTA_ROLES),
    "Wav2Vec2CTCTokenizer": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"},
    "MgpstrTokenizer": {"bos_token": "[GO]", "eos_token": "[s]", "unk_token": "[GO]", "pad_token": "[GO]"},
    "EsmTokenizer": {"eos_token": "<eos>", "unk_token": "<unk>", "pad_token": "<pad>", "cls_token": "<cls>",
                     "mask_token": "<mask>"},
    "EsmcTokenizer": {"bos_token": "<cls>", "eos_token": "<eos>", "unk_token": "<unk>", "pad_token": "<pad>",
                      "cls_token": "<cls>", "mask_token": "<mask>"},
    "LasrTokenizer": {"eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"},
    "VitsTokenizer": {"pad_token": "<pad>", "unk_token": "<unk>"},
    "RoFormerTokenizer": _BERT_ROLES,
    "CpmAntTokenizer": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"},
    "CpmTokenizer": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "sep_token": "<sep>",
                     "pad_token": "<pad>", "cls_token": "<cls>", "mask_token": "<mask>"},
    "Wav2Vec2PhonemeCTCTokenizer": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>",
                                    "pad_token": "<pad>"},
    "M2M100Tokenizer": {"bos_token": "<s>", "eos_token": "</s>", "sep_token": "</s>", "pad_token": "<pad>",
                        "unk_token": "<unk>"},
    "Speech2TextTokenizer": {"bos_token": "<s>", "eos_token": "</s>", "pad_token": "<pad>", "unk_token": "<unk>"},
    "MarianTokenizer": {"eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"},
    **dict.fromkeys(("PLBartTokenizer", "BartphoTokenizer"), _ROBERTA_ROLES),
    "SiglipTokenizer": {"eos_token": "</s>", "unk_token": "<unk>", "pad_token": "</s>"},
}

# Classes of transformers' auto mapping hfcompat does not follow, by what transformers does that hfcompat
# does not (it follows tokenizer.json as it is, with a warning saying this).
_LAYOUT = ("is a layout tokenizer: it encodes words with their bounding boxes (or HTML nodes), a call "
           "hfcompat's encode does not take")
NOT_BUILT: dict[str, str] = {
    "TapasTokenizer": ("encodes a question with a table (a pandas DataFrame: its cells with row, column and rank "
                       "ids), a call hfcompat's encode does not take"),
    **dict.fromkeys(("LayoutLMv2Tokenizer", "LayoutLMv3Tokenizer", "LayoutXLMTokenizer", "MarkupLMTokenizer",
                     "UdopTokenizer"), _LAYOUT),
    "RagTokenizer": ("pairs the tokenizers of question_encoder_tokenizer/ and generator_tokenizer/ with the model "
                     "configs of a RAG config.json (model_type rag), which this directory lacks (hfcompat.load reads "
                     "such a directory as RagTokenizer's question encoder)"),
}


def class_roles(config: Config, name: str | None, roles: tuple[str, ...]) -> dict[str, str]:
    """Each role's token: the config's (a null there means none), else the class default."""
    defaults = DEFAULT_ROLES.get(name or "", {})
    found = {}
    for key in roles:
        value = token_text(config[key]) if key in config else defaults.get(key)
        if value is not None:
            found[key] = value
    return found


# The post-processor a class sets on a SentencePiece model (whose other components follow sentencepiece);
# the SentencePieceBackend classes (PYTHON_SENTENCEPIECE_CLASSES) set their decoder too.
SENTENCEPIECE_POST_PROCESSORS: dict[str, Callable[[Config, Data], Data]] = {
    "T5Tokenizer": t5_post_processor,
    "AlbertTokenizer": albert_post_processor,
    "XLNetTokenizer": xlnet_post_processor,
    "BertGenerationTokenizer": partial(python_sentencepiece, eos_after=False),
    "SpeechT5Tokenizer": partial(python_sentencepiece, eos_after=True),
    "GPTSw3Tokenizer": gpt_sw3,
}
# Classes that set their post-processor themselves, after transformers' bos/eos handling.
OWN_POST_PROCESSOR = {name for name, build in CLASSES.items() if getattr(build, "func", build) in (
    bert, mpnet, herbert, splinter, nougat, roberta, luke, clip, whisper, deberta, xglm, rembert, t5, xlm_roberta, camembert,
    pegasus, big_bird, mluke, mbart, mbart50, nllb, seamless_m4t, albert, deberta_v2, xlnet)} - {"VideoPrismTokenizer"}


def call_rule(config: Config, name: str | None) -> str | None:
    """What the class does on some texts that hfcompat does not, unless the config turns it off."""
    if name not in CLASS_CALL_RULES:
        return None
    key, what = CLASS_CALL_RULES[name]
    return what if key is None or key not in config or config[key] is not None else None


def readd_specials(data: Data, name: str | None, tokens: list[str], lstrip: frozenset[str] = frozenset()) -> Data:
    """The file's added tokens as a class that adds its special `tokens` again leaves them (plain flags; those in
    `lstrip` take the spaces before them)."""
    if name not in READDS_SPECIALS:
        return data
    wanted = set(tokens)
    for entry in data.get("added_tokens") or []:
        if entry.get("content") in wanted:
            entry.update(lstrip=entry["content"] in lstrip, rstrip=False, normalized=False, special=True)
    return data


def lstrip_tokens(name: str | None, roles: dict[str, str]) -> frozenset[str]:
    """The role tokens the class adds with lstrip (Blenderbot's and MPNet's mask)."""
    return frozenset(roles[key] for key in LSTRIP_ROLES.get(name or "", ()) if key in roles)


def pegasus_extra_tokens(config: Config) -> list[str]:
    """PegasusTokenizer's additional special tokens: its sentence mask (unless the config's list holds it) and
    <unk_2> ... <unk_{offset-1}>."""
    mask_sent = role(config, "mask_token_sent", "<mask_1>")
    given = [token_text(t) for t in config.get("additional_special_tokens") or []]
    first = [mask_sent] if mask_sent is not None and mask_sent not in given else []
    return first + [f"<unk_{i}>" for i in range(2, int(config.get("offset", 103)))]


def class_extra_tokens(config: Config, name: str | None) -> list[str]:
    """The special tokens a class adds besides its roles (CodeLlama's infilling tokens, XLNet's default
    additional special tokens), in its order."""
    defaults = CLASS_EXTRA_TOKENS.get(name or "", {})
    found = [token_text(config[key]) if key in config else default for key, default in defaults.items()]
    given_extras = config.get("additional_special_tokens") is not None or config.get("extra_special_tokens") is not None
    if not given_extras:
        found += list(DEFAULT_ADDITIONAL_SPECIALS.get(name or "", ()))
    if name == "PegasusTokenizer":
        found += pegasus_extra_tokens(config)
    if name in ("ByT5Tokenizer", "MyT5Tokenizer") and not given_extras:
        found += [f"<extra_id_{i}>" for i in range(int(config.get("extra_ids", 125)))]
    if name == "LasrTokenizer" and not given_extras:
        found += [f"<extra_id_{i}>" for i in range(int(config.get("extra_ids", 100)))]
    if name == "XGLMTokenizer":
        found += [f"<madeupword{i}>" for i in range(7)]
    if name in ("MBartTokenizer", "MBart50Tokenizer", "NllbTokenizer") and not given_extras:
        found += language_codes()[name]
    return [token for token in found if token]


def template_flags(config: Config, name: str | None, from_tokenizer_json: bool) -> tuple[bool, bool] | None:
    """(add_bos_token, add_eos_token) of the bos/eos template the class builds whatever the file holds, or None.

    transformers drops the config's flags beside a tokenizer.json, so the class's own defaults hold there.
    """
    if name not in TEMPLATE_FLAGS:
        return None
    bos, eos = TEMPLATE_FLAGS[name]
    if from_tokenizer_json:
        return bos, eos
    return bool(config.get("add_bos_token", bos)), bool(config.get("add_eos_token", eos))


def is_rebuilt_by_class(name: str | None) -> bool:
    """False when transformers loads the directory as TokenizersBackend: no class, an as-is one, or one it
    does not know (from a SentencePiece model, transformers 5.24 then follows the model's own settings)."""
    return name in CLASSES or name in NOT_BUILT or name in PYTHON_SENTENCEPIECE_CLASSES


def strip_fast(name: str) -> str:
    """A class name without the "Fast" suffix transformers 5 folds into one class."""
    return name[:-4] if name.endswith("Fast") and name not in AS_IS_CLASSES else name


def class_name(config: Config) -> str | None:
    """tokenizer_class without the "Fast" suffix transformers 5 folds into one class."""
    name = config.get("tokenizer_class")
    return strip_fast(name) if isinstance(name, str) else None
