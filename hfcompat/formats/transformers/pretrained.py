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

import dataclasses
import json
from pathlib import Path
from typing import Any

from ... import decoders, normalizers, pre_tokenizers, processors
from ...decoders.collapsed_ids import CollapsedIds
from ...errors import FormatError
from ...files import atomic_write_text
from ...models.bpe import BPE
from ...models.vocab_files import read_merges_txt, read_vocab_json, read_vocab_txt
from ...models.wordpiece import WordPiece
from ...pipeline.added_vocabulary import AddedToken
from ...processors.python_type_ids import PythonTypeIds
from ...segmentation.pre_tokenizer import SideFiles
from ...tokenizer import Tokenizer
from ..detect import HFCOMPAT_FILE
from ..sentencepiece.read import read_sentencepiece, sentencepiece_source
from ..tokenizer_json import (check_unique_ids, tokenizer_around, tokenizer_from_dict, tokenizer_to_dict,
                              tokenizer_to_json)
from . import classes
from .auto_class import MODEL_CONFIG_FILE, auto_class
from .chat_templates import ChatTemplates, chat_template_files, read_chat_templates
from .legacy_files import declared_token, with_legacy_files
from .mistral_common import is_mistral_directory, mistral_common_backend
from .own_files import OWN_FILES_CLASSES, is_rebuilt
from .classes import token_text

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
# The files of a directory whose tokenizer runs in hfcompat inside transformers (hf_tokenizer_class).
REMOTE_CLASS = "HfcompatTokenizer"
LOADER_MODULE = "tokenization_hfcompat"
LOADER_SOURCE = (
    '"""Loads the hfcompat tokenizer of this directory into transformers (needs `pip install hfcompat`)."""\n\n'
    "from hfcompat.formats.transformers.remote_code import HfcompatTokenizer\n\n"
    '__all__ = ["HfcompatTokenizer"]\n'
)
SPECIAL_TOKENS_MAP_FILE = "special_tokens_map.json"
ADDED_TOKENS_FILE = "added_tokens.json"
TOKENIZER_FILE = "tokenizer.json"


# ---------------------------------------------------------------- slow files


def bert_tokenizer(vocab_path: str | Path, lowercase: bool = True, *, tokenize_chinese_chars: bool = True,
                   strip_accents: bool | None = None) -> Tokenizer:
    """BERT's WordPiece pipeline over a vocab.txt, as BertTokenizer builds it (defaults: uncased)."""
    vocab = read_vocab_txt(vocab_path)
    for token, owner in (("[UNK]", "loads it and fails on the first unknown word"), ("[CLS]", "refuses it"),
                         ("[SEP]", "refuses it")):
        if token not in vocab:
            raise FormatError(f"a BERT vocabulary needs {token} (BertWordPieceTokenizer {owner})", path=str(vocab_path))
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


def gpt2_tokenizer(vocab_path: str | Path, merges_path: str | Path, *, strict: bool = True) -> Tokenizer:
    """GPT-2's byte-level BPE pipeline over vocab.json + merges.txt, as GPT2TokenizerFast builds it
    (`strict=False` allows an id given to two tokens, see read_tokenizer_json)."""
    vocab = read_vocab_json(vocab_path)
    if strict:
        try:
            check_unique_ids(vocab, "vocab")
        except FormatError as error:
            raise error.at(path=str(vocab_path)) from None
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
                    chat_template: ChatTemplates = None, remote_code: bool = False, exact: bool = True) -> list[Path]:
    """Write tokenizer.json, tokenizer_config.json and special_tokens_map.json into `directory`.

    `special_tokens` overrides the roles found in the tokenizer (e.g. {"pad_token": "<pad>"}); a
    role's token must already be an added token. With `remote_code`, the directory holds
    hfcompat's own file and a transformers class that runs hfcompat (for pipelines tokenizer.json
    cannot hold); AutoTokenizer then needs trust_remote_code=True and hfcompat installed.
    The chat template(s) (`chat_template`, else the tokenizer's) go to chat_template.jinja and
    additional_chat_templates/, where transformers' save_pretrained puts them. `exact=False` writes
    the nearest tokenizer.json where none runs exactly as the tokenizer does, with a warning.
    Returns the paths written.
    """
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise FormatError("save_pretrained needs a directory, and this is a file", path=str(directory))
    roles = named_special_tokens(tokenizer)
    for role, content in (special_tokens or {}).items():
        _check_role(tokenizer, role, content)
        roles[role] = content
    config = tokenizer_config(tokenizer, roles)
    # Everything is serialized before any write: a failure leaves nothing.
    if remote_code:
        config.pop("add_bos_token", None)
        config.pop("add_eos_token", None)
        config["tokenizer_class"] = REMOTE_CLASS
        config["auto_map"] = {"AutoTokenizer": [f"{LOADER_MODULE}.{REMOTE_CLASS}", None]}
        files = remote_code_files(tokenizer, exact=exact)
    else:
        files = {TOKENIZER_FILE: tokenizer_to_json(tokenizer, pretty=True, exact=exact)}
    files[CONFIG_FILE] = _json_text(config)
    files[SPECIAL_TOKENS_MAP_FILE] = _json_text(roles)
    files.update(chat_template_files(chat_template or tokenizer.chat_template))
    for name, content in files.items():
        atomic_write_text(directory / name, content)
    return [directory / name for name in files]


def remote_code_files(tokenizer: Tokenizer, prefix: str = "", exact: bool = True) -> dict[str, str]:
    """name -> text of hfcompat's own files in a remote-code directory.

    hfcompat_tokenizer.json may hold hfcompat's own components (Chinese word segmentation),
    whose data files (a dictionary, an HMM) come beside it; then the loader module.
    """

    side_files = SideFiles(prefix=prefix)
    text = tokenizer_to_json(tokenizer, pretty=True, extensions=side_files, exact=exact)
    return {prefix + HFCOMPAT_FILE: text, **side_files.written, f"{LOADER_MODULE}.py": LOADER_SOURCE}


def read_hfcompat_file(path: str | Path) -> Tokenizer:
    """Read hfcompat_tokenizer.json with the files its extension entries name beside it."""

    path = Path(path)
    try:
        return tokenizer_from_dict(_read_json(path), extensions=SideFiles(directory=path.parent))
    except FormatError as error:
        raise error.at(path=error.path or str(path)) from None


def tokenizer_config(tokenizer: Tokenizer, roles: dict[str, str]) -> dict[str, Any]:
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


def _json_text(data: dict[str, Any]) -> str:
    """Indented JSON, as transformers writes its configs."""
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


# ---------------------------------------------------------------- reading transformers directories

SENTENCEPIECE_FILES = ("tokenizer.model", "spiece.model", "sentencepiece.bpe.model")
EXTRA_SPECIALS = ("additional_special_tokens", "extra_special_tokens")
SLOW_FILES = "slow files"
BY_RULE = "the class's rule or own files"
SENTENCEPIECE = "SentencePiece model"


def is_pretrained_directory(directory: Path) -> bool:
    """True when the directory holds a tokenizer_config.json (what transformers writes), or what AutoTokenizer
    goes by without one: config.json (its model_type names the class), special_tokens_map.json or
    added_tokens.json, or a tekken.json that config.json's model type has AutoTokenizer read with
    MistralCommonBackend."""
    return any((directory / name).is_file()
               for name in (CONFIG_FILE, MODEL_CONFIG_FILE, SPECIAL_TOKENS_MAP_FILE, ADDED_TOKENS_FILE)) or \
        is_mistral_directory(directory, auto_class(directory, {}))


def load_pretrained(directory: str | Path, model_config: dict[str, Any] | None = None) -> Tokenizer:
    """The tokenizer AutoTokenizer.from_pretrained(directory) builds, without transformers.

    Reads tokenizer.json, or the slow files (vocab.txt; vocab.json + merges.txt; a SentencePiece
    .model) with tokenizer_config.json, and builds the pipeline of the class the config names
    (formats.transformers_classes). A SentencePiece model follows sentencepiece itself; where
    transformers' own conversion is not exact, a warning says so. `model_config` stands for the directory's
    config.json (the model config a caller passes AutoTokenizer).
    """

    directory = Path(directory)
    config = _with_legacy_files(directory, read_config(directory))
    name = auto_class(directory, config, model_config)
    if is_mistral_directory(directory, name):
        return mistral_common_backend(directory)
    data, source = _pipeline_data(directory, name, config)
    data, name = _class_pipeline(directory, name, source, config, data)
    after_load = data.pop("after_load", None)  # what an own-files class does to the tokenizer once it is built
    roles = classes.class_roles(config, name, SPECIAL_ROLES)
    if name in classes.BY_RULE_CLASSES:
        data = _with_declared_flags(data, config)
    # transformers 5 ignores add_bos_token/add_eos_token beside a tokenizer.json.
    explicit_flags = "add_bos_token" in config or "add_eos_token" in config
    flags = classes.template_flags(config, name, source == TOKENIZER_FILE)
    if flags is not None:
        flagged = {**config, **roles, "add_bos_token": flags[0], "add_eos_token": flags[1]}
        data["post_processor"] = classes.bos_eos_template(flagged, data)
    elif name not in classes.OWN_POST_PROCESSOR and explicit_flags and source != TOKENIZER_FILE:
        data["post_processor"] = classes.bos_eos_template(config, data)
    extra_tokens = classes.class_extra_tokens(config, name)
    readded = [*roles.values(), *_config_extra_tokens(config), *extra_tokens]
    lstrip = classes.lstrip_tokens(name, roles)
    data = classes.readd_specials(data, name, readded, lstrip)
    # The class adds its special tokens again after the config's added_tokens_decoder too.
    classes.readd_specials({"added_tokens": _decoder_entries(config)}, name, readded, lstrip)
    # A class built by rule holds hfcompat's own components (model, normalizer, ...), not their dicts.
    own_parts = {key: data.pop(key) for key in ("normalizer", "pre_tokenizer", "decoder", "post_processor")
                 if source == BY_RULE and data.get(key) is not None and not isinstance(data[key], dict)}
    # A post-processor naming a special token the file lacks waits until the tokens are added.
    deferred = data.get("post_processor") if classes.has_unknown_ids(data.get("post_processor")) else None
    if deferred:
        data["post_processor"] = None
    # Only hfcompat's own file may hold hfcompat's components (read with the files beside it).
    own_file = (directory / HFCOMPAT_FILE).exists()
    extensions = SideFiles(directory=directory) if own_file else None
    where = str(directory / (HFCOMPAT_FILE if own_file else TOKENIZER_FILE))
    try:
        tokenizer = tokenizer_around(data.pop("model"), data) if not isinstance(data["model"], dict) else \
            tokenizer_from_dict(data, extensions=extensions)
    except FormatError as error:
        raise error.at(path=error.path or where) from None
    for key, part in own_parts.items():
        setattr(tokenizer, key, part)
    if source == BY_RULE:
        tokenizer.added_vocabulary.is_strippable = str.isspace  # a Python tokenizer's str.strip
    if name in classes.DECODED_TEXT_REWRITES and tokenizer.decoder is not None:
        tokenizer.decoder = decoders.RewrittenText(tokenizer.decoder, *classes.DECODED_TEXT_REWRITES[name])
    if config.get("clean_up_tokenization_spaces") and type(tokenizer.model).__name__ != "BPE" \
            and not getattr(tokenizer.decoder, "clean_up", False):
        _warn(f"{directory}: clean_up_tokenization_spaces is on, so transformers' decode removes spaces "
              "before punctuation; hfcompat's decode does not (encoding is unaffected)")
    python_backend = source == BY_RULE or name in classes.PYTHON_SENTENCEPIECE_CLASSES
    tokenizer.python_truncation = python_backend
    _add_config_tokens(tokenizer, config, roles, extra_tokens, classes.lstrip_tokens(name, roles),
                       python_backend=python_backend)
    if python_backend:
        _warn_if_ids_moved(directory, name, config, tokenizer)
    bind = getattr(tokenizer.model, "bind_added_vocabulary", None)
    if bind is not None:  # a Python class's model that looks its tokens up among the added ones first
        bind(tokenizer.added_vocabulary)
    if name in classes.DECODES_SPECIAL_TOKEN_RUNS and tokenizer.decoder is not None:
        specials = frozenset([*roles.values(), *_config_extra_tokens(config), *extra_tokens])
        tokenizer.decoder = decoders.SpecialTokenRuns(tokenizer.decoder, specials)
    if deferred:
        try:
            tokenizer.post_processor = processors.from_dict(classes.fill_ids(deferred, tokenizer.token_to_id))
        except FormatError as error:
            raise error.at(path=error.path or where) from None
    fill = getattr(tokenizer.post_processor, "fill_ids", None)
    if fill is not None:  # an own post-processor naming a token the class added (its id known only now)
        tokenizer.post_processor = fill(tokenizer.token_to_id)
    if source == BY_RULE and tokenizer.post_processor is not None:
        tokenizer.post_processor = PythonTypeIds(tokenizer.post_processor)
    if name in classes.CTC_DECODE_CLASSES:
        pad = roles.get("pad_token")
        tokenizer.decoder = CollapsedIds(tokenizer.decoder, tokenizer.token_to_id(pad) if pad else None)
    if after_load is not None:
        after_load(tokenizer)
    tokenizer.named_special_tokens = roles
    tokenizer.chat_template = read_chat_templates(directory, config)
    return tokenizer


def _class_pipeline(directory: Path, name: str | None, source: str, config: dict[str, Any],
                    data: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The tokenizer.json dict of the pipeline the class builds, and the class that built it.

    A class transformers does not know is loaded as TokenizersBackend, which takes tokenizer.json as it
    is; a known class hfcompat cannot build is followed by a warning saying what transformers does.
    """

    if name in classes.PYTHON_SENTENCEPIECE_CLASSES:
        _warn_python_sentencepiece(directory, name, source, config)
    if source == SENTENCEPIECE:
        if name in classes.SENTENCEPIECE_POST_PROCESSORS:
            data = classes.SENTENCEPIECE_POST_PROCESSORS[name](config, data)
        return data, name
    if name in classes.CLASSES:
        if source == SLOW_FILES:
            _warn_if_files_unread(directory, name, data)
        rule = classes.call_rule(config, name)
        if rule:
            _warn(f"{directory}: transformers' {name} {rule}; hfcompat encodes such a text as it is")
        if name in classes.CLASS_DECODE_RULES:
            _warn(f"{directory}: transformers' {name} {classes.CLASS_DECODE_RULES[name]}")
        try:
            return classes.CLASSES[name](config, data), name
        except FormatError as error:
            raise error.at(path=error.path or str(directory)) from None
    if source == SLOW_FILES:
        fallback = "BertTokenizer" if data["model"]["type"] == "WordPiece" else "GPT2Tokenizer"
        if name is not None:
            _warn(f"{directory}: hfcompat does not know the pipeline transformers' {name} builds; "
                  f"it builds {fallback}'s from these files")
        return classes.CLASSES[fallback](config, data), fallback
    if name in classes.NOT_BUILT:
        _warn(f"{directory}: transformers' {name} {classes.NOT_BUILT[name]}; hfcompat does not do that and "
              "follows tokenizer.json as it is, so AutoTokenizer's results may differ")
    return data, name


def _warn_python_sentencepiece(directory: Path, name: str, source: str, config: dict[str, Any]) -> None:
    """Say what a SentencePieceBackend class does that hfcompat does not: read its .model when the directory
    lacks it, or an option of the config hfcompat does not follow."""
    model_file = classes.PYTHON_SENTENCEPIECE_CLASSES[name]
    if source != SENTENCEPIECE or not (directory / model_file).exists():
        _warn(f"{directory}: transformers' {name} runs sentencepiece on the directory's {model_file}; there is none "
              "here, so hfcompat follows the files it found")
    if name == "GPTSw3Tokenizer" and "gpt-sw3-7b" in str(directory):
        _warn(f"{directory}: transformers' {name} makes its pad token the unk token and its bos token the eos token "
              "when the path holds 'gpt-sw3-7b' and the config names none; hfcompat keeps <pad> and <s>")
    for rule in classes.python_sentencepiece_rules(config):
        _warn(f"{directory}: transformers' {name} {rule}; hfcompat does not")


def _warn_if_files_unread(directory: Path, name: str, data: dict[str, Any]) -> None:
    """Say so when the class does not read the directory's classic vocabulary files (not in its vocab_files_names)."""
    files = "vocab.txt" if data["model"]["type"] == "WordPiece" else "vocab.json"
    if classes.VOCAB_FILES.get(name) != files:
        _warn(f"{directory}: transformers' {name} does not read {files}, so AutoTokenizer builds it with its "
              f"special tokens alone; hfcompat builds {name}'s pipeline over these files")


def read_config(directory: Path) -> dict[str, Any]:
    """tokenizer_config.json as a dict ({} when absent)."""
    path = directory / CONFIG_FILE
    return _read_json(path) if path.exists() else {}


def _with_legacy_files(directory: Path, config: dict[str, Any]) -> dict[str, Any]:
    """The config with special_tokens_map.json, added_tokens.json and tokenizer.json's added tokens merged in,
    as transformers reads them when the config has no added_tokens_decoder (legacy_files)."""
    if "added_tokens_decoder" in config:
        return config

    def optional(name: str) -> dict[str, Any] | None:
        return _read_json(directory / name) if (directory / name).is_file() else None

    tokenizer_json = optional(TOKENIZER_FILE) or {}
    file_added = tokenizer_json.get("added_tokens")
    return with_legacy_files(config, optional(SPECIAL_TOKENS_MAP_FILE), optional(ADDED_TOKENS_FILE),
                             file_added if isinstance(file_added, list) else None, SPECIAL_ROLES)


def _pipeline_data(directory: Path, name: str | None, config: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The tokenizer.json dict to start from, and its source: TOKENIZER_FILE, SLOW_FILES,
    SENTENCEPIECE (a pipeline that already follows its owner library) or BY_RULE (a class that reads
    no file, whatever the directory holds: {})."""

    if name in classes.BY_RULE_CLASSES:
        return {}, BY_RULE
    if name in OWN_FILES_CLASSES:
        try:
            return OWN_FILES_CLASSES[name](directory, config), BY_RULE
        except FormatError as error:
            raise error.at(path=error.path or str(directory)) from None
    own_model = classes.PYTHON_SENTENCEPIECE_CLASSES.get(name or "")
    if own_model and (directory / own_model).exists():
        return _sentencepiece_data(directory / own_model, name), SENTENCEPIECE
    for file_name in (HFCOMPAT_FILE, TOKENIZER_FILE):
        if (directory / file_name).exists():
            return _read_json(directory / file_name), TOKENIZER_FILE
    if (directory / "vocab.txt").exists():
        vocab = read_vocab_txt(directory / "vocab.txt")
        return {"model": {"type": "WordPiece", "vocab": vocab}, "added_tokens": []}, SLOW_FILES
    if (directory / "vocab.json").exists() and (directory / "merges.txt").exists():
        vocab = read_vocab_json(directory / "vocab.json")
        merges = [list(pair) for pair in read_merges_txt(directory / "merges.txt")]
        return {"model": {"type": "BPE", "vocab": vocab, "merges": merges}, "added_tokens": []}, SLOW_FILES
    for file_name in SENTENCEPIECE_FILES:
        if (directory / file_name).exists():
            return _sentencepiece_data(directory / file_name, name), SENTENCEPIECE
    raise FormatError("no tokenizer.json, vocab.txt, vocab.json + merges.txt or SentencePiece model "
                      f"({', '.join(SENTENCEPIECE_FILES)}) in this directory", path=str(directory))


def _sentencepiece_data(path: Path, name: str | None) -> dict[str, Any]:
    """The tokenizer.json dict of a SentencePiece model as sentencepiece runs it (with what TokenizersBackend
    adds when no class rebuilds it)."""
    tokenizer = read_sentencepiece(path)
    _warn_if_transformers_differs(path, tokenizer, name)
    data = tokenizer_to_dict(tokenizer)
    if not is_rebuilt(name):
        data = _as_backend_reads(data, sentencepiece_source(tokenizer).proto)
    return data


def _as_backend_reads(data: dict[str, Any], proto: Any) -> dict[str, Any]:
    """A SentencePiece pipeline with what TokenizersBackend adds to it: its decoder and special pieces."""
    trainer = proto.trainer_spec
    specials = {proto.pieces[index].piece: index for index in (trainer.bos_id, trainer.eos_id, trainer.unk_id)
                if 0 <= index < len(proto.pieces)}
    return classes.backend_sentencepiece(data, trainer.byte_fallback, proto.normalizer_spec.add_dummy_prefix,
                                         specials)


def _read_json(path: Path) -> dict[str, Any]:
    """A JSON object file, errors as FormatError."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FormatError(f"not valid JSON: {error}", path=str(path)) from None
    if not isinstance(data, dict):
        raise FormatError("expected a JSON object", path=str(path))
    return data


def _warn_if_transformers_differs(path: Path, tokenizer: Tokenizer, name: str | None) -> None:
    """Say so where transformers' class does not encode a SentencePiece model as sentencepiece does.

    A BPE model becomes Metaspace + BPE, which splits runs of spaces differently ("▁▁" + "You"
    against "▁" + "▁You"); ALBERT, XLNet and others add their own normalization (lowercasing,
    quote replacement). hfcompat follows sentencepiece.
    """
    if not is_rebuilt(name) or name in classes.PYTHON_SENTENCEPIECE_CLASSES:
        return
    if name in classes.CLASSES and name not in classes.SENTENCEPIECE_SPACING_CLASSES:
        _warn(f"{path}: transformers' {name} builds its own pipeline over this SentencePiece model's vocabulary "
              "(its normalizer, pre-tokenizer and decoder, not the model's), which encodes differently; "
              "hfcompat follows sentencepiece")
    elif type(tokenizer.model).__name__ == "BPE":
        _warn(f"{path}: transformers' {name or 'tokenizer'} converts this SentencePiece BPE model "
              "inexactly (runs of spaces split differently); hfcompat follows sentencepiece")
    elif name != "T5Tokenizer":
        _warn(f"{path}: transformers' {name} adds its own normalization to this SentencePiece model; "
              "hfcompat follows sentencepiece")


def _config_extra_tokens(config: dict[str, Any]) -> list[str]:
    """The config's additional/extra special tokens, in order."""
    found: list[str] = []
    for key in EXTRA_SPECIALS:
        extra = config.get(key) or []
        found += [t for t in map(token_text, extra.values() if isinstance(extra, dict) else extra) if t]
    return found


def _declared_values(config: dict[str, Any]) -> dict[str, Any]:
    """token -> the config's value naming it (a string or an AddedToken dict with its flags), roles first."""
    values = [config[key] for key in SPECIAL_ROLES if key in config]
    for key in EXTRA_SPECIALS:
        extra = config.get(key) or []
        values += list(extra.values() if isinstance(extra, dict) else extra)
    declared: dict[str, Any] = {}
    for value in values:
        text = token_text(value)
        if text and not isinstance(declared.get(text), dict):
            declared[text] = value
    return declared


def _add_config_tokens(tokenizer: Tokenizer, config: dict[str, Any], roles: dict[str, str], class_tokens: list[str],
                       lstrip: frozenset[str] = frozenset(), *, python_backend: bool = False) -> None:
    """Add the config's added_tokens_decoder, then its named and extra special tokens and the class's own
    (`class_tokens`), as transformers does; a new token in `lstrip` takes the spaces before it.

    A new named or extra token the config gives as an AddedToken dict keeps its flags. TokenizersBackend makes
    an entry of the decoder that a role names special (a Python tokenizer, `python_backend`, keeps it as given).
    """
    named = set(roles.values())
    tokenizer.add_tokens([_decoder_token(entry, named if not python_backend else set())
                          for entry in _decoder_entries(config)])
    known = tokenizer.added_vocabulary.token_to_id
    wanted = [*roles.values(), *_config_extra_tokens(config), *class_tokens]
    new = [t for t in dict.fromkeys(wanted) if t and t not in known]
    if new:
        declared = _declared_values(config)
        tokenizer.add_tokens([AddedToken.from_dict(declared_token(declared.get(t), t, t in named, t in lstrip))
                              for t in new])


def _decoder_entries(config: dict[str, Any]) -> list[dict[str, Any]]:
    """The entries of the config's added_tokens_decoder, by id (the config's own dicts)."""
    decoder = config.get("added_tokens_decoder") or {}
    if not isinstance(decoder, dict):
        return []
    return [entry for _, entry in sorted(decoder.items(), key=lambda item: int(item[0])) if isinstance(entry, dict)]


def _warn_if_ids_moved(directory: Path, name: str | None, config: dict[str, Any], tokenizer: Tokenizer) -> None:
    """Say so when a Python tokenizer's added token lands elsewhere than the id its files give it: transformers
    keeps that id (holes and all), hfcompat gives the next free one as `tokenizers` does."""
    decoder = config.get("added_tokens_decoder") or {}
    moved = [f"{entry['content']!r}: {index} there, {tokenizer.token_to_id(entry['content'])} here"
             for index, entry in (decoder.items() if isinstance(decoder, dict) else ())
             if isinstance(entry, dict) and str(tokenizer.token_to_id(entry.get("content", ""))) != str(index)]
    if moved:
        _warn(f"{directory}: transformers' {name} keeps the ids the directory gives its added tokens (tokenizer_config"
              ".json's added_tokens_decoder, else added_tokens.json and the added tokens of tokenizer.json), over the "
              f"vocabulary's; hfcompat adds them at the next free id, so these differ ({', '.join(moved[:5])})")


def _with_declared_flags(data: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    """The class's own role tokens with the flags of the config's AddedToken dict naming them (a byte class
    puts a role given as AddedToken into its vocabulary as it is, and only a string gets its own flags)."""
    declared = _declared_values(config)
    for entry in data.get("added_tokens") or []:
        value = declared.get(entry.get("content"))
        if isinstance(value, dict):
            entry.update(declared_token(value, entry["content"], True, entry.get("lstrip", False)))
    return data


def _decoder_token(entry: dict[str, Any], named: set[str]) -> AddedToken:
    """An added_tokens_decoder entry as an AddedToken, made special when its content is in `named`."""
    token = AddedToken.from_dict({k: v for k, v in entry.items() if k != "__type"})
    return dataclasses.replace(token, special=True) if token.content in named else token


def _warn(message: str) -> None:
    """A UserWarning pointing at the caller of hfcompat.formats.load."""
    import warnings
    warnings.warn(message, UserWarning, stacklevel=4)
