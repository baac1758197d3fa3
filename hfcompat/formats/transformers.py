"""transformers directories: the pipelines its classes build from slow files, and `save_pretrained`.

A directory `transformers.AutoTokenizer.from_pretrained` loads holds tokenizer.json, and
tokenizer_config.json naming the class and the special tokens. `save_pretrained` writes both
(plus the legacy special_tokens_map.json) so that transformers 5.x rebuilds exactly this
tokenizer: it names the class that takes tokenizer.json as it is, declares as special tokens
only tokens that are already added tokens (so transformers adds nothing), and writes
add_bos_token/add_eos_token only when transformers' own post-processor for those flags is the
one the tokenizer has (writing them makes transformers rebuild it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .. import decoders, normalizers, pre_tokenizers, processors
from ..added_vocabulary import AddedToken
from ..errors import FormatError
from ..models.bpe import BPE
from ..models.wordpiece import WordPiece
from ..tokenizer import Tokenizer
from .atomic import atomic_write_text
from .vocab_files import read_merges_txt, read_vocab_json, read_vocab_txt

BERT_SPECIALS = ("[UNK]", "[SEP]", "[CLS]", "[PAD]", "[MASK]")
# The class AutoTokenizer maps to transformers 5's TokenizersBackend (and 4.x's fast base class):
# it loads tokenizer.json as it is, without rebuilding any component.
TOKENIZER_CLASS = "PreTrainedTokenizerFast"
VERY_LARGE_INTEGER = int(1e30)  # transformers' "no maximum" model_max_length
SPECIAL_ROLES = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token",
                 "mask_token")
# Usual spellings of a role, used when neither the post-processor nor the model names it.
CONVENTIONAL_NAMES = {
    "pad_token": ("[PAD]", "<pad>", "<|pad|>", "<|padding|>"),
    "mask_token": ("[MASK]", "<mask>", "<|mask|>"),
    "unk_token": ("[UNK]", "<unk>", "<|unk|>"),
    "bos_token": ("<s>", "<|startoftext|>", "<|begin_of_text|>", "<bos>"),
    "eos_token": ("</s>", "<|endoftext|>", "<|end_of_text|>", "<eos>"),
    "cls_token": ("[CLS]", "<cls>"),
    "sep_token": ("[SEP]", "<sep>"),
}
CONFIG_FILE = "tokenizer_config.json"
SPECIAL_TOKENS_MAP_FILE = "special_tokens_map.json"
TOKENIZER_FILE = "tokenizer.json"


# ---------------------------------------------------------------- slow files


def bert_tokenizer(vocab_path: str | Path, lowercase: bool = True, *, tokenize_chinese_chars: bool = True,
                   strip_accents: bool | None = None) -> Tokenizer:
    """BERT's WordPiece pipeline over a vocab.txt, as BertTokenizer builds it (defaults: uncased)."""
    vocab = read_vocab_txt(vocab_path)
    for token in ("[UNK]", "[CLS]", "[SEP]"):
        if token not in vocab:
            raise FormatError(f"a BERT vocabulary needs {token}", path=str(vocab_path))
    tokenizer = Tokenizer(
        WordPiece(vocab, unk_token="[UNK]", continuing_subword_prefix="##",
                  max_input_chars_per_word=100),
        normalizer=normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=tokenize_chinese_chars,
                                              strip_accents=strip_accents, lowercase=lowercase),
        pre_tokenizer=pre_tokenizers.BertPreTokenizer(),
        post_processor=processors.BertProcessing(sep=("[SEP]", vocab["[SEP]"]),
                                                 cls=("[CLS]", vocab["[CLS]"])),
        decoder=decoders.WordPiece(prefix="##", cleanup=True),
    )
    tokenizer.add_special_tokens(
        [AddedToken(t, normalized=False, special=True) for t in BERT_SPECIALS if t in vocab])
    return tokenizer


def gpt2_tokenizer(vocab_path: str | Path, merges_path: str | Path) -> Tokenizer:
    """GPT-2's byte-level BPE pipeline over vocab.json + merges.txt, as GPT2TokenizerFast builds it."""
    vocab = read_vocab_json(vocab_path)
    merges = read_merges_txt(merges_path)
    try:
        model = BPE(vocab, merges, continuing_subword_prefix="", end_of_word_suffix="")
    except FormatError as error:
        raise error.at(path=str(merges_path)) from None
    tokenizer = Tokenizer(
        model,
        pre_tokenizer=pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True),
        post_processor=processors.ByteLevel(add_prefix_space=True, trim_offsets=False),
        decoder=decoders.ByteLevel(),
    )
    if "<|endoftext|>" in vocab:
        tokenizer.add_special_tokens([AddedToken("<|endoftext|>", normalized=True, special=True)])
    return tokenizer


# ---------------------------------------------------------------- save_pretrained


def save_pretrained(tokenizer: Tokenizer, directory: str | Path, *,
                    special_tokens: dict[str, str] | None = None,
                    chat_template: str | None = None) -> list[Path]:
    """Write tokenizer.json, tokenizer_config.json and special_tokens_map.json into `directory`.

    `special_tokens` overrides the roles found in the tokenizer (e.g. {"pad_token": "<pad>"}); a
    role's token must already be an added token. Returns the paths written.
    """
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise FormatError("save_pretrained needs a directory, and this is a file", path=str(directory))
    roles = named_special_tokens(tokenizer)
    for role, content in (special_tokens or {}).items():
        _check_role(tokenizer, role, content)
        roles[role] = content
    config = tokenizer_config(tokenizer, roles, chat_template)
    from .tokenizer_json import write_tokenizer_json
    paths = [directory / TOKENIZER_FILE, directory / CONFIG_FILE, directory / SPECIAL_TOKENS_MAP_FILE]
    write_tokenizer_json(tokenizer, paths[0])
    _write_json(paths[1], config)
    _write_json(paths[2], roles)
    return paths


def tokenizer_config(tokenizer: Tokenizer, roles: dict[str, str],
                     chat_template: str | None = None) -> dict[str, Any]:
    """The tokenizer_config.json object for `tokenizer` with these special-token roles."""
    truncation = tokenizer.truncation
    config: dict[str, Any] = {
        "tokenizer_class": TOKENIZER_CLASS,
        "model_max_length": truncation.max_length if truncation is not None else VERY_LARGE_INTEGER,
        # hfcompat's decode never runs transformers' clean-up; with it on, WordPiece text would differ.
        "clean_up_tokenization_spaces": False,
        **roles,
    }
    flags = bos_eos_flags(tokenizer.post_processor, roles)
    if flags is not None:
        config.update(flags)
    template = chat_template or getattr(tokenizer, "chat_template", None)
    if template:
        config["chat_template"] = template
    return config


def named_special_tokens(tokenizer: Tokenizer) -> dict[str, str]:
    """The roles (bos_token, eos_token, ...) of the tokenizer's added tokens, in SPECIAL_ROLES order.

    From, in order of trust: roles the tokenizer was loaded with, the post-processor, the model's
    unknown token, the padding token, and the usual spellings of each role. Only added tokens count.
    """
    added = set(tokenizer.added_vocabulary.token_to_id)
    found: dict[str, str] = {}

    def offer(role: str, content: str | None) -> None:
        if content is not None and content in added and role not in found:
            found[role] = content

    for role, content in (getattr(tokenizer, "named_special_tokens", None) or {}).items():
        offer(role, content)
    for role, content in _post_processor_roles(tokenizer.post_processor):
        offer(role, content)
    offer("unk_token", _model_unk_token(tokenizer.model))
    if tokenizer.padding is not None:
        offer("pad_token", tokenizer.padding.pad_token)
    specials = [t.content for _, t in sorted(tokenizer.get_added_tokens_decoder().items()) if t.special]
    for role, names in CONVENTIONAL_NAMES.items():
        for name in names:
            if name in specials:
                offer(role, name)
    return {role: found[role] for role in SPECIAL_ROLES if role in found}


def _check_role(tokenizer: Tokenizer, role: str, content: str) -> None:
    """A role given by the caller must be a known role naming an existing added token."""
    if role not in SPECIAL_ROLES:
        raise ValueError(f"unknown special-token role {role!r}; expected one of {', '.join(SPECIAL_ROLES)}")
    if content not in tokenizer.added_vocabulary.token_to_id:
        raise ValueError(f"{role}={content!r} is not an added token of this tokenizer: transformers "
                         "would add it and tokenize differently; add it with add_special_tokens first")


def _post_processor_roles(processor: Any) -> list[tuple[str, str]]:
    """(role, token) pairs a post-processor implies: CLS/SEP for BERT, <s>/</s> around a template."""
    if processor is None:
        return []
    return _roles_from_dict(processor.to_dict())


def _roles_from_dict(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The roles of a post-processor's tokenizer.json form."""
    kind = data.get("type")
    if kind == "Sequence":
        return [role for inner in data.get("processors", []) for role in _roles_from_dict(inner)]
    if kind == "BertProcessing":
        return [("cls_token", data["cls"][0]), ("sep_token", data["sep"][0])]
    if kind == "RobertaProcessing":
        cls, sep = data["cls"][0], data["sep"][0]
        return [("bos_token", cls), ("eos_token", sep), ("cls_token", cls), ("sep_token", sep)]
    if kind != "TemplateProcessing":
        return []
    single = data.get("single", [])
    position = next((i for i, item in enumerate(single) if "Sequence" in item), len(single))
    before = [item["SpecialToken"]["id"] for item in single[:position] if "SpecialToken" in item]
    after = [item["SpecialToken"]["id"] for item in single[position:] if "SpecialToken" in item]
    tokens = data.get("special_tokens", {})

    def content(name: str) -> str:
        entry = tokens.get(name, {})
        return entry["tokens"][0] if len(entry.get("tokens", [])) == 1 else name

    roles = []
    if before:
        first = content(before[0])
        roles.append(("cls_token" if first in CONVENTIONAL_NAMES["cls_token"] else "bos_token", first))
    if after:
        last = content(after[-1])
        roles.append(("sep_token" if last in CONVENTIONAL_NAMES["sep_token"] else "eos_token", last))
    return roles


def _model_unk_token(model: Any) -> str | None:
    """The model's unknown token (Unigram names it by id)."""
    unk = getattr(model, "unk_token", None)
    if unk is None and getattr(model, "unk_id", None) is not None:
        unk = model.id_to_token(model.unk_id)
    return unk


def bos_eos_flags(processor: Any, roles: dict[str, str]) -> dict[str, bool] | None:
    """add_bos_token/add_eos_token when transformers would rebuild this very post-processor, else None.

    transformers (TokenizersBackend.update_post_processor) builds single "[bos:0] $A:0 [eos:0]" and
    pair "<single> [bos:1] $B:1 [eos:1]" with one id per token.
    """
    if processor is None or not isinstance(processor, processors.TemplateProcessing):
        return None
    data = processor.to_dict()
    bos, eos = roles.get("bos_token"), roles.get("eos_token")
    for add_bos in (False, True):
        for add_eos in (False, True):
            if (add_bos and bos is None) or (add_eos and eos is None):
                continue
            if _template_dict(bos if add_bos else None, eos if add_eos else None, data) == data:
                return {"add_bos_token": add_bos, "add_eos_token": add_eos}
    return None


def _template_dict(bos: str | None, eos: str | None, like: dict[str, Any]) -> dict[str, Any]:
    """The TemplateProcessing transformers builds for these tokens, ids taken from `like`."""
    def side(type_id: int, sequence: str) -> list[dict[str, Any]]:
        items = [{"SpecialToken": {"id": bos, "type_id": type_id}}] if bos else []
        items.append({"Sequence": {"id": sequence, "type_id": type_id}})
        if eos:
            items.append({"SpecialToken": {"id": eos, "type_id": type_id}})
        return items

    known = like.get("special_tokens", {})
    special = {}
    for name in sorted({t for t in (bos, eos) if t}):
        ids = known.get(name, {}).get("ids", [])
        special[name] = {"id": name, "ids": ids if len(ids) == 1 else None, "tokens": [name]}
    return {"type": "TemplateProcessing", "single": side(0, "A"), "pair": side(0, "A") + side(1, "B"),
            "special_tokens": special}


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """Indented UTF-8 JSON, as transformers writes its configs."""
    atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
