"""The pipelines transformers 5.x tokenizer classes build, as tokenizer.json dicts.

AutoTokenizer does not always take tokenizer.json as it is: a class with its own constructor
(BertTokenizer, GPT2Tokenizer, LlamaTokenizer, T5Tokenizer, ...) keeps only the vocabulary (and
merges) of the file and builds its normalizer, pre-tokenizer, decoder and often its
post-processor itself, from tokenizer_config.json's options. Each function here takes the
tokenizer.json dict (the file's, or one made from slow files) and the config, and returns the
dict of the pipeline that class builds. Nothing here calls transformers.
"""

from __future__ import annotations

from typing import Any, Callable

Config = dict[str, Any]
Data = dict[str, Any]

# Classes that take tokenizer.json as it is.
AS_IS_CLASSES = {"TokenizersBackend", "PreTrainedTokenizerFast", "HfcompatTokenizer"}


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


def template(single: list[str], pair: list[str], specials: list[str], data: Data) -> Data:
    """A TemplateProcessing dict from transformers' string items ("$A:0", "[CLS]:0", "</s>")."""
    ids = vocab_ids(data)
    for entry in data.get("added_tokens") or []:
        ids.setdefault(entry["content"], entry["id"])

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
            "special_tokens": {name: {"id": name, "ids": [ids[name]], "tokens": [name]}
                               for name in sorted(set(specials)) if name in ids}}


def bos_eos_template(config: Config, data: Data) -> Data:
    """transformers' own template for add_bos_token/add_eos_token (TokenizersBackend)."""
    bos = role(config, "bos_token", None) if config.get("add_bos_token") else None
    eos = role(config, "eos_token", None) if config.get("add_eos_token") else None

    def side(type_id: int, sequence: str) -> list[str]:
        return ([f"{bos}:{type_id}"] if bos else []) + [f"${sequence}:{type_id}"] + \
            ([f"{eos}:{type_id}"] if eos else [])

    return template(side(0, "A"), side(0, "A") + side(1, "B"), [t for t in (bos, eos) if t], data)


# ---------------------------------------------------------------- the classes


def bert(config: Config, data: Data) -> Data:
    """BertTokenizer: WordPiece with BERT's normalizer, pre-tokenizer, decoder and [CLS]/[SEP] template."""
    unk = role(config, "unk_token", "[UNK]")
    cls, sep = role(config, "cls_token", "[CLS]"), role(config, "sep_token", "[SEP]")
    data["model"] = {"type": "WordPiece", "unk_token": unk, "continuing_subword_prefix": "##",
                     "max_input_chars_per_word": 100, "vocab": vocab_ids(data)}
    data["normalizer"] = {"type": "BertNormalizer", "clean_text": True,
                          "handle_chinese_chars": config.get("tokenize_chinese_chars", True),
                          "strip_accents": config.get("strip_accents"),
                          "lowercase": config.get("do_lower_case", True)}
    data["pre_tokenizer"] = {"type": "BertPreTokenizer"}
    data["decoder"] = {"type": "WordPiece", "prefix": "##", "cleanup": True}
    data["post_processor"] = template([f"{cls}:0", "$A:0", f"{sep}:0"],
                                      [f"{cls}:0", "$A:0", f"{sep}:0", "$B:1", f"{sep}:1"], [cls, sep], data)
    return data


def _byte_level_bpe(config: Config, data: Data) -> Data:
    """GPT-2's byte-level BPE components (shared by GPT2Tokenizer and RobertaTokenizer)."""
    model = data["model"]
    data["model"] = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                     "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False,
                     "ignore_merges": False, "vocab": vocab_ids(data), "merges": model.get("merges", [])}
    data["normalizer"] = None
    data["pre_tokenizer"] = {"type": "ByteLevel", "add_prefix_space": bool(config.get("add_prefix_space", False)),
                             "trim_offsets": True, "use_regex": True}
    data["decoder"] = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
    return data


def gpt2(config: Config, data: Data) -> Data:
    """GPT2Tokenizer: byte-level BPE; the file's post-processor stays."""
    return _byte_level_bpe(config, data)


def roberta(config: Config, data: Data) -> Data:
    """RobertaTokenizer: byte-level BPE and RobertaProcessing(</s>, <s>)."""
    data = _byte_level_bpe(config, data)
    ids = vocab_ids(data)
    for entry in data.get("added_tokens") or []:
        ids.setdefault(entry["content"], entry["id"])
    sep, cls = role(config, "sep_token", "</s>"), role(config, "cls_token", "<s>")
    data["post_processor"] = {"type": "RobertaProcessing", "sep": [sep, ids.get(sep)], "cls": [cls, ids.get(cls)],
                              "trim_offsets": config.get("trim_offsets", True),
                              "add_prefix_space": bool(config.get("add_prefix_space", False))}
    return data


def llama(config: Config, data: Data) -> Data:
    """LlamaTokenizer: BPE with byte fallback, Metaspace without split, Llama's decoder."""
    model = data["model"]
    add_prefix_space = config.get("add_prefix_space")
    add_prefix_space = True if add_prefix_space is None else add_prefix_space
    scheme = ("always" if config.get("legacy", False) else "first") if add_prefix_space else "never"
    data["model"] = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                     "end_of_word_suffix": None, "fuse_unk": True, "byte_fallback": True,
                     "ignore_merges": False, "vocab": vocab_ids(data), "merges": model.get("merges", [])}
    data["normalizer"] = None
    data["pre_tokenizer"] = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": scheme, "split": False}
    steps = [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "}, {"type": "ByteFallback"},
             {"type": "Fuse"}]
    if add_prefix_space:
        steps.append({"type": "Strip", "content": " ", "start": 1, "stop": 0})
    data["decoder"] = {"type": "Sequence", "decoders": steps}
    return data


def t5(config: Config, data: Data) -> Data:
    """T5Tokenizer: Unigram (unk id 2), the file's Precompiled map, Metaspace, "$A </s>" template."""
    model = data["model"]
    data["model"] = {"type": "Unigram", "unk_id": 2, "vocab": model.get("vocab", []), "byte_fallback": False}
    data["normalizer"] = _precompiled_only(data.get("normalizer"))
    metaspace = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True}
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, metaspace]}
    data["decoder"] = dict(metaspace)
    return t5_post_processor(config, data)


def t5_post_processor(config: Config, data: Data) -> Data:
    """T5's "$A </s>" / "$A </s> $B </s>" (every type id 0)."""
    data["post_processor"] = template(["$A", "</s>"], ["$A", "</s>", "$B", "</s>"], ["</s>"], data)
    return data


def albert_post_processor(config: Config, data: Data) -> Data:
    """ALBERT's "[CLS] $A [SEP]" / "... $B:1 [SEP]:1"."""
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


def _precompiled_only(normalizer: Data | None) -> Data | None:
    """The first Precompiled normalizer of a normalizer dict (T5 keeps only that), or None."""
    if not normalizer:
        return None
    inner = normalizer.get("normalizers", [normalizer]) if normalizer.get("type") == "Sequence" else [normalizer]
    return next((n for n in inner if n.get("type") == "Precompiled" and n.get("precompiled_charsmap")), None)


# class name (without a "Fast" suffix) -> the pipeline it builds
CLASSES: dict[str, Callable[[Config, Data], Data]] = {
    "BertTokenizer": bert,
    "GPT2Tokenizer": gpt2,
    "RobertaTokenizer": roberta,
    "LlamaTokenizer": llama,
    "T5Tokenizer": t5,
}
# The special tokens each class declares when the config names none (its constructor defaults).
DEFAULT_ROLES: dict[str, dict[str, str]] = {
    "BertTokenizer": {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]",
                      "mask_token": "[MASK]"},
    "GPT2Tokenizer": {"bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>", "unk_token": "<|endoftext|>"},
    "RobertaTokenizer": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "sep_token": "</s>",
                         "pad_token": "<pad>", "cls_token": "<s>", "mask_token": "<mask>"},
    "LlamaTokenizer": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"},
    "T5Tokenizer": {"eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"},
    "AlbertTokenizer": {"bos_token": "[CLS]", "eos_token": "[SEP]", "unk_token": "<unk>", "sep_token": "[SEP]",
                        "pad_token": "<pad>", "cls_token": "[CLS]", "mask_token": "[MASK]"},
    "XLNetTokenizer": {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "sep_token": "<sep>",
                       "pad_token": "<pad>", "cls_token": "<cls>", "mask_token": "<mask>"},
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


# The post-processor a class sets on a SentencePiece model (whose other components follow sentencepiece).
SENTENCEPIECE_POST_PROCESSORS: dict[str, Callable[[Config, Data], Data]] = {
    "T5Tokenizer": t5_post_processor,
    "AlbertTokenizer": albert_post_processor,
    "XLNetTokenizer": xlnet_post_processor,
}
# Classes that set their post-processor themselves, after transformers' bos/eos handling.
OWN_POST_PROCESSOR = {"BertTokenizer", "RobertaTokenizer", "T5Tokenizer", "AlbertTokenizer", "XLNetTokenizer"}


def class_name(config: Config) -> str | None:
    """tokenizer_class without the "Fast" suffix transformers 5 folds into one class."""
    name = config.get("tokenizer_class")
    if not isinstance(name, str):
        return None
    return name[:-4] if name.endswith("Fast") and name not in AS_IS_CLASSES else name
