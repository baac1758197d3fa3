"""tokenizer.json pipelines SentencePiece can run, written as a ModelProto; the others refused.

SentencePiece runs one fixed pipeline: a charsmap, its whitespace rules, a dummy "▁" prefix,
then Unigram or BPE over the whole normalized text. A tokenizer.json is accepted when each of
its components is one SentencePiece has (see `_normalizer_flags`, `_pre_tokenizer_flags`), and
its model is Unigram, or BPE over characters whose merges SentencePiece's score order
reproduces (every split of a piece is a merge, and the merges of one piece are adjacent);
anything else raises UnsupportedConversion naming the component and the reason.
"""

from __future__ import annotations

import base64
import math
from pathlib import Path
from typing import Any

from ...errors import UnsupportedConversion
from ...files import atomic_write_bytes
from ...normalizers.normalization_rules import charsmap_name
from ...normalizers.replace import EXTRA_SPACES
from ...tokenizer import Tokenizer
from ..lost_state import SENTENCEPIECE, lost_in, refuse_or_warn
from ..tokenizer_json import tokenizer_to_dict
from . import schema as spm
from .read import AFTER_LAST_CHAR, SPACE, sentencepiece_source, words_are_cuts

BYTE_PIECES = {f"<0x{byte:02X}>" for byte in range(256)}


def _refuse(component: str, reason: str) -> UnsupportedConversion:
    """The error for a component SentencePiece cannot run as tokenizer.json does."""
    return UnsupportedConversion(f"cannot write a SentencePiece .model: {component}: {reason}")


def _flatten(component: Any, key: str) -> list[dict]:
    """The steps of a component: a Sequence's items, one component, or none."""
    if component is None:
        return []
    if component.get("type") == "Sequence":
        return [leaf for item in component[key] for leaf in _flatten(item, key)]
    return [component]


def _normalizer_flags(normalizer: Any) -> dict[str, Any]:
    """Charsmap and whitespace flags from the normalizer steps, in SentencePiece's order."""
    flags = {"charsmap": b"", "remove_extra_whitespaces": False, "escape": False, "prefix": False,
             "suffix": False, "user_defined": set()}
    for step in _flatten(normalizer, "normalizers"):
        kind = step.get("type")
        if kind == "Precompiled" and not flags["charsmap"] and not flags["escape"]:
            flags["charsmap"] = base64.b64decode(step["precompiled_charsmap"])
        elif kind == "Replace" and step["pattern"] == {"Regex": EXTRA_SPACES} and step["content"] == "":
            flags["remove_extra_whitespaces"] = True
        elif kind == "Replace" and step["pattern"] == {"String": " "} and step["content"] == SPACE:
            flags["escape"] = True
        elif kind == "Prepend" and step["prepend"] == SPACE:
            flags["prefix"] = True
        elif kind == "Replace" and step["pattern"] == {"Regex": AFTER_LAST_CHAR} and step["content"] == SPACE:
            flags["prefix"] = flags["suffix"] = True
        else:
            raise _refuse("normalizer", f"{kind} {step} has no SentencePiece equivalent")
    return flags


def _pre_tokenizer_flags(pre_tokenizer: Any, model_type: str, flags: dict[str, Any], vocab: list[str]) -> None:
    """Fold a Metaspace (after an optional WhitespaceSplit) into the normalizer flags."""
    steps = _flatten(pre_tokenizer, "pretokenizers")
    if steps and steps[0].get("type") == "Split" and steps[0].get("behavior") == "Isolated" \
            and not steps[0].get("invert") and "Regex" in steps[0]["pattern"]:
        flags["user_defined"] = {_unescape(part) for part in _split_alternatives(steps[0]["pattern"]["Regex"])}
        steps = steps[1:]
    if steps and steps[0].get("type") == "WhitespaceSplit":
        if model_type != "Unigram":
            raise _refuse("pre_tokenizer", "WhitespaceSplit isolates words, which SentencePiece BPE does not")
        flags["remove_extra_whitespaces"] = True
        steps = steps[1:]
    if not steps:
        return
    if len(steps) > 1 or steps[0].get("type") != "Metaspace" or steps[0].get("replacement") != SPACE:
        kinds = ", ".join(str(step.get("type")) for step in steps)
        raise _refuse("pre_tokenizer", f"{kinds}: SentencePiece splits text only as a Metaspace with '▁' "
                      "does (it has no byte-level or regex pre-tokenizer)")
    metaspace = steps[0]
    if metaspace.get("split", True) and not words_are_cuts(vocab):
        raise _refuse("pre_tokenizer", "Metaspace split=true cuts words apart, and SentencePiece "
                      "runs the model across them (a piece holds '▁' past its first char)")
    flags["escape"] = True
    scheme = metaspace.get("prepend_scheme", "always")
    if scheme != "never":
        flags["prefix"] = True


def _piece_types(data: dict, vocab: list[str], user_defined: set[str]) -> list[int]:
    """Piece types: unk UNKNOWN; CONTROL for the tokens the template adds and those the decoder
    erases; other added tokens USER_DEFINED (matched in text, as HF matches them); bytes BYTE."""
    model = data["model"]
    unk = model.get("unk_id") if model["type"] == "Unigram" else None
    if model["type"] == "BPE" and model.get("unk_token") in vocab:
        unk = vocab.index(model["unk_token"])
    if unk is None:
        raise _refuse("model", "SentencePiece needs an unknown piece, and the model has none")
    controls = _template_tokens(data.get("post_processor")) | _erased_tokens(data.get("decoder"))
    added = {entry["content"] for entry in data.get("added_tokens") or []} | user_defined
    byte_fallback = bool(model.get("byte_fallback"))
    types = []
    for index, piece in enumerate(vocab):
        if index == unk:
            types.append(spm.UNKNOWN)
        elif piece in controls:
            types.append(spm.CONTROL)
        elif piece in added:
            types.append(spm.USER_DEFINED)
        elif byte_fallback and piece in BYTE_PIECES:
            types.append(spm.BYTE)
        else:
            types.append(spm.NORMAL)
    return types


def _template_tokens(processor: Any) -> set[str]:
    """The tokens a TemplateProcessing inserts."""
    if not processor:
        return set()
    return {token for special in (processor.get("special_tokens") or {}).values()
            for token in special.get("tokens", [])}


def _erased_tokens(decoder: Any) -> set[str]:
    """Tokens a decoder step `Replace(Regex("\\A(?:a|b)\\z"), "")` erases: sentencepiece's controls."""
    erased: set[str] = set()
    for step in _flatten(decoder, "decoders"):
        pattern = step.get("pattern", {}).get("Regex", "") if step.get("type") == "Replace" else ""
        if step.get("content") == "" and pattern.startswith(r"\A(?:") and pattern.endswith(r")\z"):
            erased.update(_unescape(part) for part in _split_alternatives(pattern[5:-3]))
    return erased


def _split_alternatives(pattern: str) -> list[str]:
    """`a|b\\|c` -> ["a", "b\\|c"]: split on the bars that are not escaped."""
    parts, current, escaped = [], "", False
    for char in pattern:
        if char == "|" and not escaped:
            parts.append(current)
            current = ""
            continue
        current += char
        escaped = char == "\\" and not escaped
    return [*parts, current]


def _unescape(text: str) -> str:
    """Undo `sentencepiece._escape`."""
    out, escaped = [], False
    for char in text:
        if char == "\\" and not escaped:
            escaped = True
            continue
        out.append(char)
        escaped = False
    return "".join(out)


def _merge_pair(merge: Any) -> tuple[str, str]:
    """A merge as (left, right), from either tokenizer.json form."""
    if isinstance(merge, str):
        left, right = merge.split(" ", 1)
        return left, right
    return merge[0], merge[1]


def _bpe_scores(model: dict, vocab: list[str], user_defined: set[str]) -> list[float]:
    """Scores whose order gives the merge ranks, after checking SentencePiece can reproduce them."""
    for name in ("continuing_subword_prefix", "end_of_word_suffix"):
        if model.get(name):
            raise _refuse("model", f"BPE with {name}={model[name]!r}: SentencePiece has no such decoration")
    if model.get("dropout"):
        raise _refuse("model", "BPE dropout is not stored in a .model")
    if model.get("ignore_merges") and not user_defined:
        raise _refuse("model", "BPE ignore_merges takes a whole word from the vocabulary; sentencepiece "
                      "merges every word")
    ids = {piece: index for index, piece in enumerate(vocab)}
    first_rank: dict[str, int] = {}
    last_piece = None
    for rank, merge in enumerate(model["merges"]):
        left, right = _merge_pair(merge)
        piece = left + right
        if piece in first_rank and piece != last_piece:
            raise _refuse("model", f"the merges of {piece!r} are not adjacent (rank {rank}); SentencePiece "
                          "ranks every merge of a piece by that piece's one score")
        first_rank.setdefault(piece, rank)
        last_piece = piece
    merged = set(first_rank)
    pairs = {(left, right) for left, right in map(_merge_pair, model["merges"])}
    for piece in merged:
        for cut in range(1, len(piece)):
            left, right = piece[:cut], piece[cut:]
            if left in ids and right in ids and (left in merged or len(left) == 1) \
                    and (right in merged or len(right) == 1) and (left, right) not in pairs:
                raise _refuse("model", f"{left!r} + {right!r} makes the piece {piece!r} but is not a merge; "
                              "SentencePiece would merge them")
    total = len(model["merges"])
    return [-float(first_rank[piece]) if piece in first_rank else -float(total + index)
            for index, piece in enumerate(vocab)]


def proto_from_pipeline(data: dict) -> Any:
    """A ModelProto that sentencepiece runs as `tokenizers` runs the tokenizer.json object `data`."""
    model = dict(data["model"])
    kind = model.get("type")
    if kind not in ("Unigram", "BPE"):
        raise _refuse("model", f"{kind}: SentencePiece runs Unigram and character BPE models only")
    flags = _normalizer_flags(data.get("normalizer"))
    if kind == "Unigram":
        vocab = [piece for piece, _ in model["vocab"]]
        scores = [score for _, score in model["vocab"]]
    else:
        by_id = sorted(model["vocab"].items(), key=lambda item: item[1])
        if [index for _, index in by_id] != list(range(len(by_id))):
            raise _refuse("model", "BPE vocabulary ids are not 0..n-1")
        vocab = [piece for piece, _ in by_id]
    _pre_tokenizer_flags(data.get("pre_tokenizer"), kind, flags, vocab)
    _check_post_processor(data.get("post_processor"))
    if kind == "BPE":
        scores = _bpe_scores(model, vocab, flags["user_defined"])
    for entry in data.get("added_tokens") or []:
        if entry["content"] not in vocab:
            vocab.append(entry["content"])
            scores.append(0.0)
    types = _piece_types(data, vocab, flags["user_defined"])
    proto = spm.ModelProto()
    for piece, score, piece_type in zip(vocab, scores, types):
        if not math.isfinite(score):
            raise _refuse("model", f"piece {piece!r} has a non-finite score")
        proto.pieces.add(piece=piece, score=score, type=piece_type)
    _fill_specs(proto, kind, model, flags, vocab, types)
    surface = _unknown_surface(data.get("decoder"), vocab[types.index(spm.UNKNOWN)])
    if surface != proto.trainer_spec.unk_surface:
        proto.trainer_spec.unk_surface = surface
    return proto


def _unknown_surface(decoder: Any, unknown: str) -> str:
    """What the decoder turns the unknown piece into: the content of its `Replace(Regex("\\A<unk>\\z"))`
    step (a pipeline read from a .model has one), else the piece itself, as `tokenizers` shows it."""
    for step in _flatten(decoder, "decoders"):
        pattern = step.get("pattern", {}).get("Regex", "") if step.get("type") == "Replace" else ""
        if pattern.startswith(r"\A") and pattern.endswith(r"\z") and _unescape(pattern[2:-2]) == unknown:
            return step["content"]
    return unknown


def _check_post_processor(processor: Any) -> None:
    """Only [special] $A [special] templates: sentencepiece adds bos/eos as runtime options."""
    if processor is None:
        return
    if processor.get("type") != "TemplateProcessing":
        raise _refuse("post_processor", f"{processor.get('type')}: SentencePiece adds only bos/eos, "
                      "by a runtime option")
    single = processor.get("single", [])
    sequences = [i for i, item in enumerate(single) if "Sequence" in item]
    if len(sequences) != 1 or sequences[0] > 1 or len(single) - sequences[0] > 2:
        raise _refuse("post_processor", "a template other than [bos] $A [eos]")


def _fill_specs(proto: Any, kind: str, model: dict, flags: dict, vocab: list[str], types: list[int]) -> None:
    """trainer_spec and normalizer_spec for the pieces and flags."""
    trainer = proto.trainer_spec
    trainer.model_type = spm.UNIGRAM if kind == "Unigram" else spm.BPE
    trainer.vocab_size = len(vocab)
    trainer.byte_fallback = bool(model.get("byte_fallback"))
    trainer.treat_whitespace_as_suffix = flags["suffix"]
    unk = types.index(spm.UNKNOWN)
    trainer.unk_id, trainer.unk_piece = unk, vocab[unk]
    for name, piece in (("bos", "<s>"), ("eos", "</s>"), ("pad", "<pad>")):
        index = vocab.index(piece) if piece in vocab and types[vocab.index(piece)] == spm.CONTROL else -1
        setattr(trainer, f"{name}_id", index)
    spec = proto.normalizer_spec
    spec.name = charsmap_name(flags["charsmap"])
    spec.precompiled_charsmap = flags["charsmap"]
    spec.add_dummy_prefix = flags["prefix"]
    spec.remove_extra_whitespaces = flags["remove_extra_whitespaces"]
    spec.escape_whitespaces = flags["escape"]


def write_sentencepiece(tokenizer: Tokenizer, path: str | Path, exact: bool = True) -> None:
    """Write `tokenizer` as a .model file, or raise UnsupportedConversion and write nothing.

    With `exact=False`, a charsmap or Unigram that sentencepiece would run otherwise (lost_state.py)
    is written with a warning."""
    source = sentencepiece_source(tokenizer)
    if source is not None and _same_pipeline(tokenizer_to_dict(tokenizer), source.pipeline()):
        proto = source.proto
    else:
        proto = proto_from_tokenizer(tokenizer)
        refuse_or_warn(lost_in(tokenizer, SENTENCEPIECE), exact)
    atomic_write_bytes(Path(path), proto.SerializeToString())


def _same_pipeline(current: dict, original: dict) -> bool:
    """True when the tokenizer still holds the pipeline it was read as."""
    keys = ("added_tokens", "normalizer", "pre_tokenizer", "post_processor", "decoder", "model")
    return all(current.get(key) == original.get(key) for key in keys)


def proto_from_tokenizer(tokenizer: Tokenizer) -> Any:
    """A ModelProto for a tokenizer.json pipeline that SentencePiece can run exactly."""
    return proto_from_pipeline(tokenizer_to_dict(tokenizer))
