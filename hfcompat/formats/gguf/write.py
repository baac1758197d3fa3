"""Vocab-only GGUF files written as llama.cpp's converter writes a model's tokenizer keys.

A tokenizer read from a GGUF and left as it was is written back with the same keys and values.
Any other is written from its tokenizer.json pipeline when GGUF can hold it:

- byte-level BPE -> `gpt2`, with the `pre` name whose pipeline (pre_tokenizers.json) equals its
  normalizer, pre-tokenizer and `ignore_merges`; tokens as byte-level strings, the merges;
- BPE with byte fallback and SentencePiece's space handling -> `llama`: the pieces with their
  scores (a .model's own, else one per merge, best first), BYTE / UNKNOWN / CONTROL /
  USER_DEFINED types, and the merges too;
- WordPiece with BERT's lowercasing pipeline -> `bert`, words as llama.cpp stores them ("▁word");
- Unigram with a precompiled charsmap and Metaspace -> `t5`.

Anything else (another model or pre-tokenizer, a post-processor beyond bos/eos, ids with gaps,
an added token that strips spaces or matches normalized text) raises UnsupportedConversion naming
it, and nothing is written. Truncation and padding are settings of a call, not of the
tokenizer: GGUF has none, and they are not written.
"""

from __future__ import annotations

import base64
import dataclasses
from pathlib import Path
from typing import Any

from ...errors import UnsupportedConversion
from ...files import atomic_target
from ...models.plamo2 import Plamo2
from ...models.rwkv import RWKV
from ...tokenizer import Tokenizer
from ..lost_state import GGUF, lost_in, refuse_or_warn
from ..tokenizer_json import tokenizer_to_dict
from ..sentencepiece.read import sentencepiece_source
from .read import (BYTE, CONTROL, KEY, NORMAL, SPACE, TABLE, UNKNOWN, UNUSED, USER_DEFINED, GGUFTokenizerData,
                   flag_defaults, gguf_source, pipeline_from_gguf, require_gguf)



def write_gguf(tokenizer: Tokenizer, path: str | Path, exact: bool = True) -> None:
    """Write `tokenizer` as a vocab-only GGUF, or raise UnsupportedConversion and write nothing.

    With `exact=False`, state a GGUF cannot hold (lost_state.py) is dropped with a warning."""
    data = gguf_data(tokenizer)
    refuse_or_warn(lost_in(tokenizer, GGUF), exact)
    write_gguf_data(data, path)


def write_gguf_data(data: GGUFTokenizerData, path: str | Path) -> None:
    """Write tokenizer keys as a vocab-only GGUF (atomically)."""
    module = require_gguf()
    with atomic_target(Path(path)) as target:
        writer = module.GGUFWriter(str(target), arch=data.model)  # llama.cpp's architecture of that name
        _add_keys(writer, data)
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.close()


def _add_keys(writer: Any, data: GGUFTokenizerData) -> None:
    """The tokenizer keys, with llama.cpp's types."""
    writer.add_tokenizer_model(data.model)
    if data.pre is not None:
        writer.add_tokenizer_pre(data.pre)
    writer.add_token_list(data.tokens)
    writer.add_token_types(data.types)
    if data.scores is not None:
        writer.add_token_scores(data.scores)
    if data.merges is not None:
        writer.add_token_merges(data.merges)
    for name, token_id in data.special_ids.items():
        writer.add_uint32(f"{KEY}{name}_token_id", token_id)
    for name, flag in data.flags.items():
        writer.add_bool(KEY + name, flag)
    if data.charsmap is not None:
        writer.add_precompiled_charsmap(data.charsmap)
    if isinstance(data.chat_template, dict):  # the unnamed template as "default", the others by name
        writer.add_chat_template([{"name": name, "template": text} for name, text in data.chat_template.items()])
    elif data.chat_template is not None:
        writer.add_chat_template(data.chat_template)


def gguf_data(tokenizer: Tokenizer) -> GGUFTokenizerData:
    """The GGUF tokenizer keys of a tokenizer, or UnsupportedConversion."""
    source = gguf_source(tokenizer)
    if isinstance(tokenizer.model, (RWKV, Plamo2)):
        return dataclasses.replace(_source_only(tokenizer, source), chat_template=tokenizer.chat_template)
    pipeline = tokenizer_to_dict(tokenizer)
    if source is not None and _same(pipeline_from_gguf(source), pipeline):
        return dataclasses.replace(source, chat_template=tokenizer.chat_template)  # the template as it is now
    model = pipeline["model"]
    kind = model["type"]
    if kind == "BPE" and _is_byte_level(pipeline):
        data = _byte_level_data(pipeline)
    elif kind == "BPE" and model.get("byte_fallback"):
        data = _sentencepiece_data(tokenizer, pipeline)
    elif kind == "WordPiece":
        data = _wordpiece_data(pipeline)
    elif kind == "Unigram":
        data = _unigram_data(pipeline)
    else:
        raise UnsupportedConversion(f"model: GGUF holds byte-level BPE, SentencePiece BPE with byte fallback, "
                                    f"BERT's WordPiece and T5's Unigram; not this {kind}")
    data.chat_template = tokenizer.chat_template
    _check_post_processor(pipeline, data)
    for flag in flag_defaults(data):  # not added, where llama.cpp would add it by default
        data.flags.setdefault(flag, False)
    return data


def _source_only(tokenizer: Tokenizer, source: GGUFTokenizerData | None) -> GGUFTokenizerData:
    """rwkv, plamo2 (models that only GGUF holds): the keys of the GGUF the tokenizer was read from,
    when nothing that decides the ids has changed."""
    model = tokenizer.model
    if source is not None:
        expected = pipeline_from_gguf(source)
        if _model_key(expected["model"]) == _model_key(model) and \
                _same(expected, tokenizer_to_dict(tokenizer, with_model=False), with_model=False):
            return source
    raise UnsupportedConversion(f"model: a {type(model).__name__} tokenizer is written only as the GGUF it was "
                                "read from, unchanged")


def _model_key(model: Any) -> tuple:
    """What decides the ids of an rwkv or plamo2 model."""
    return type(model), model.pieces, getattr(model, "scores", None)


def _same(expected: dict, actual: dict, with_model: bool = True) -> bool:
    """True when the parts that decide the ids are the same (the model too, `with_model`)."""
    keys = ("normalizer", "pre_tokenizer", "added_tokens") + (("model",) if with_model else ())
    return all(expected.get(key) == actual.get(key) for key in keys)


def _tokens_by_id(pipeline: dict, vocab: dict[str, int]) -> tuple[list[str], dict[int, dict]]:
    """Every token in id order (the vocabulary and the added tokens), and the added ones by id."""
    added = {entry["id"]: entry for entry in pipeline["added_tokens"]}
    for entry in added.values():
        options = [name for name in ("single_word", "lstrip", "rstrip") if entry.get(name)]
        if options or (entry.get("normalized") and not entry.get("special")):
            raise UnsupportedConversion(f"added token {entry['content']!r}: GGUF keeps no "
                                        f"{'/'.join(options) or 'normalized'} flag, which changes how it "
                                        "matches text")
    by_id = {i: token for token, i in vocab.items()}
    for i, entry in added.items():
        if by_id.setdefault(i, entry["content"]) != entry["content"]:
            raise UnsupportedConversion(f"added token {entry['content']!r} shares id {i} with {by_id[i]!r}; "
                                        "a GGUF has one token per id")
    if sorted(by_id) != list(range(len(by_id))):
        missing = next(i for i in range(len(by_id)) if i not in by_id)
        raise UnsupportedConversion(f"vocabulary: no token has id {missing}; a GGUF lists tokens by id "
                                    "without gaps")
    return [by_id[i] for i in range(len(by_id))], added


def _types(tokens: list[str], added: dict[int, dict], unknown: str | None = None,
           byte_fallback: bool = False) -> list[int]:
    """llama.cpp's token type of each token."""
    types = []
    for i, token in enumerate(tokens):
        if i in added:
            types.append(CONTROL if added[i]["special"] else USER_DEFINED)
        elif token == unknown:
            types.append(UNKNOWN)
        elif byte_fallback and len(token) == 6 and token.startswith("<0x") and token.endswith(">"):
            types.append(BYTE)
        else:
            types.append(NORMAL)
    return types


# ----- the models ----------------------------------------------------------------------------

def _is_byte_level(pipeline: dict) -> bool:
    """True for a byte-level BPE: a ByteLevel pre-tokenizer, alone or in a Sequence."""
    pre = pipeline.get("pre_tokenizer") or {}
    return any(step.get("type") == "ByteLevel" for step in pre.get("pretokenizers", [pre]))


def _byte_level_data(pipeline: dict) -> GGUFTokenizerData:
    """gpt2: the tokens, the merges and the `pre` name of the pipeline."""
    model = pipeline["model"]
    for option in ("continuing_subword_prefix", "end_of_word_suffix", "dropout"):
        if model.get(option):
            raise UnsupportedConversion(f"model: BPE with {option}={model[option]!r} has no GGUF form")
    tokens, added = _tokens_by_id(pipeline, model["vocab"])
    merges = [" ".join(pair) if isinstance(pair, list) else pair for pair in model["merges"]]
    return GGUFTokenizerData("gpt2", pre_name(pipeline), tokens, _types(tokens, added), merges=merges)


def pre_name(pipeline: dict) -> str:
    """The first `pre` name whose pipeline equals this one's, or UnsupportedConversion."""
    wanted = _key(pipeline.get("normalizer"), pipeline.get("pre_tokenizer"),
                  bool(pipeline["model"].get("ignore_merges")))
    for name, entry in TABLE["pipelines"].items():
        if _key(entry.get("normalizer"), entry["pre_tokenizer"], entry.get("ignore_merges", False)) == wanted:
            return name
    raise UnsupportedConversion(f"pre_tokenizer: a GGUF names its pre-tokenizer and llama.cpp knows no name for "
                                f"this one ({pipeline.get('pre_tokenizer')!r} with normalizer "
                                f"{pipeline.get('normalizer')!r}); see formats/gguf/pre_tokenizers.json")


def _key(normalizer: Any, pre_tokenizer: Any, ignore_merges: bool) -> tuple:
    """What decides the pieces: the components without their offset-only options."""
    return (_without_offsets(normalizer), _without_offsets(pre_tokenizer), ignore_merges)


def _without_offsets(component: Any) -> Any:
    """A component dict with `trim_offsets` left out, recursively."""
    if isinstance(component, dict):
        return {k: _without_offsets(v) for k, v in component.items() if k != "trim_offsets"}
    if isinstance(component, list):
        return [_without_offsets(item) for item in component]
    return component


def _sentencepiece_data(tokenizer: Tokenizer, pipeline: dict) -> GGUFTokenizerData:
    """llama: SentencePiece BPE with byte fallback (the space prefix as its flag)."""
    model = pipeline["model"]
    prefix = _space_prefix(pipeline)
    tokens, added = _tokens_by_id(pipeline, model["vocab"])
    types = _types(tokens, added, model.get("unk_token"), byte_fallback=True)
    merges = [" ".join(pair) if isinstance(pair, list) else pair for pair in model["merges"]]
    source = sentencepiece_source(tokenizer)
    if source is not None and len(source.proto.pieces) == len(tokens):
        # The .model's scores, and its UNUSED pieces (SentencePiece numbers its types as GGUF does).
        # Its control pieces stay NORMAL unless they are added tokens: SentencePiece never matches
        # them in text, while a GGUF's CONTROL tokens are matched as the HF tokenizer matches them.
        scores = [piece.score for piece in source.proto.pieces]
        types = [UNUSED if piece.type == UNUSED else kind for piece, kind in zip(source.proto.pieces, types)]
    else:
        scores = _merge_scores(tokens, merges)
    data = GGUFTokenizerData("llama", "default", tokens, types, scores, merges, flags={"add_space_prefix": prefix})
    if model.get("unk_token") in model["vocab"]:
        data.special_ids["unknown"] = model["vocab"][model["unk_token"]]
    if source is not None:  # llama.cpp's bos / eos, as the .model's trainer spec names them
        spec = source.proto.trainer_spec
        data.special_ids.update({name: i for name, i in (("bos", spec.bos_id), ("eos", spec.eos_id))
                                 if 0 <= i < len(tokens)})
    return data


def _space_prefix(pipeline: dict) -> bool:
    """Whether the normalizer prepends "▁" (it must turn spaces into "▁" and do nothing else)."""
    normalizer = pipeline.get("normalizer") or {}
    steps = normalizer.get("normalizers", [normalizer]) if normalizer.get("type") == "Sequence" else [normalizer]
    replace = {"type": "Replace", "pattern": {"String": " "}, "content": SPACE}
    prepend = {"type": "Prepend", "prepend": SPACE}
    if pipeline.get("pre_tokenizer") is not None or replace not in steps or \
            any(step not in (replace, prepend) for step in steps):
        raise UnsupportedConversion(f"normalizer: a GGUF llama tokenizer only turns spaces into '▁' (and may "
                                    f"prepend one); this pipeline has {normalizer!r} and pre-tokenizer "
                                    f"{pipeline.get('pre_tokenizer')!r}")
    return prepend in steps


def _merge_scores(tokens: list[str], merges: list[str]) -> list[float]:
    """A score per piece that ranks merged pieces in merge order (llama.cpp merges by score)."""
    rank = {}
    for index, merge in enumerate(merges):
        rank.setdefault(merge.replace(" ", "", 1), index)
    return [-float(rank[token]) if token in rank else 0.0 for token in tokens]


def _wordpiece_data(pipeline: dict) -> GGUFTokenizerData:
    """bert: BERT's lowercasing WordPiece, words stored as llama.cpp stores them."""
    model = pipeline["model"]
    expected = {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                "strip_accents": None, "lowercase": True}
    if pipeline.get("normalizer") != expected or pipeline.get("pre_tokenizer") != {"type": "BertPreTokenizer"} \
            or model.get("continuing_subword_prefix") != "##":
        raise UnsupportedConversion("normalizer: a GGUF bert tokenizer is BERT's uncased pipeline (lowercase, "
                                    f"accents stripped, '##'); this one has {pipeline.get('normalizer')!r}")
    tokens, added = _tokens_by_id(pipeline, model["vocab"])
    types = _types(tokens, added, model.get("unk_token"))
    stored = [token if kind != NORMAL else (token[2:] if token.startswith("##") else SPACE + token)
              for token, kind in zip(tokens, types)]
    data = GGUFTokenizerData("bert", "bert-bge", stored, types)
    vocab = model["vocab"]
    for name, token in (("unknown", model.get("unk_token")), ("seperator", "[SEP]"), ("padding", "[PAD]"),
                        ("cls", "[CLS]"), ("mask", "[MASK]")):
        if token in vocab:
            data.special_ids[name] = vocab[token]
    return data


def _unigram_data(pipeline: dict) -> GGUFTokenizerData:
    """t5: Unigram behind a charsmap, WhitespaceSplit and Metaspace (T5TokenizerFast's pipeline)."""
    model = pipeline["model"]
    normalizer = pipeline.get("normalizer") or {}
    pre = pipeline.get("pre_tokenizer") or {}
    steps = pre.get("pretokenizers", [])
    metaspace = steps[-1] if len(steps) == 2 and steps[0] == {"type": "WhitespaceSplit"} else {}
    if normalizer.get("type") != "Precompiled" or metaspace.get("type") != "Metaspace" \
            or metaspace.get("replacement") != SPACE or not metaspace.get("split", True):
        raise UnsupportedConversion(f"pre_tokenizer: a GGUF t5 tokenizer is a charsmap, WhitespaceSplit and "
                                    f"Metaspace; this one has {normalizer.get('type')!r} and {pre!r}")
    vocab = {token: i for i, (token, _) in enumerate(model["vocab"])}
    tokens, added = _tokens_by_id(pipeline, vocab)
    unknown = model.get("unk_id")
    types = _types(tokens, added, tokens[unknown] if unknown is not None else None)
    data = GGUFTokenizerData("t5", "default", tokens, types, [float(score) for _, score in model["vocab"]],
                             charsmap=base64.b64decode(normalizer["precompiled_charsmap"]),
                             flags={"add_space_prefix": metaspace.get("prepend_scheme", "always") != "never"})
    if unknown is not None:
        data.special_ids["unknown"] = unknown
    return data


def _check_post_processor(pipeline: dict, data: GGUFTokenizerData) -> None:
    """A GGUF says only whether bos / eos are added: set those flags, refuse anything else."""
    processor = pipeline.get("post_processor")
    if processor is None or processor.get("type") in ("ByteLevel",):
        return
    if processor.get("type") in ("BertProcessing", "TemplateProcessing") and data.model == "bert":
        return
    if processor.get("type") == "TemplateProcessing":
        single = processor["single"]
        sequence_at = next(i for i, item in enumerate(single) if "Sequence" in item)
        before = [item["SpecialToken"]["id"] for item in single[:sequence_at] if "SpecialToken" in item]
        after = [item["SpecialToken"]["id"] for item in single[sequence_at:] if "SpecialToken" in item]
        if len(before) <= 1 and len(after) <= 1:
            for role, found in (("bos", before), ("eos", after)):
                if found:
                    data.special_ids[role] = data.tokens.index(found[0])
                    data.flags[f"add_{role}_token"] = True
            return
    raise UnsupportedConversion(f"post_processor: a GGUF only adds a bos and an eos token; this one is "
                                f"{processor.get('type')}")
