"""transformers' MyT5Tokenizer, built from the byte_maps.json it reads as AutoTokenizer runs it.

Like ByT5 it gives <pad> </s> <unk> the ids 0, 1, 2 (taking the spaces around them) and byte b the id b + 3,
but its tokens are the bytes as two hex digits, rewritten by byte_maps.json's "decompose_map" and then its
"merge_map" (models/rewritten_bytes.py); decode undoes both (decoders/rewritten_bytes.py). </s> follows each
sequence unless its ids end with it (processors/byt5.py); <extra_id_0> ... follow the bytes as special tokens
(extra_ids, 125 by default, classes.class_extra_tokens). With clean_up_tokenization_spaces, decode cleans up
spaces before punctuation as transformers does. Nothing here calls transformers;
tests/pretrained/test_myt5_classes.py holds the class to AutoTokenizer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from ...decoders import CleanedUp, Decoder
from ...decoders.rewritten_bytes import RewrittenBytesDecoder
from ...errors import FormatError
from ...models.rewritten_bytes import RewrittenBytes
from ...pipeline.byte_rewriting import ByteRewriter
from ...processors.byt5 import ByT5Processing
from .classes import DEFAULT_ROLES, role

Config = dict[str, Any]
Data = dict[str, Any]
BYTE_MAPS = "byte_maps.json"
MAPS = ("decompose_map", "merge_map")
ROLE_ORDER = ("pad_token", "eos_token", "unk_token")  # at ids 0, 1, 2


def read_byte_maps(path: Path) -> tuple[ByteRewriter, ByteRewriter]:
    """The decompose and merge rewriters of byte_maps.json (objects of byte string -> byte string)."""
    if not path.is_file():
        raise FormatError("the class reads this file and it is missing", path=str(path))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FormatError(f"not valid JSON: {error}", path=str(path)) from None
    for key in MAPS:
        rules = data.get(key) if isinstance(data, dict) else None
        if not isinstance(rules, dict) or not all(isinstance(v, str) for v in rules.values()):
            raise FormatError(f"expected {key!r}: an object of byte sequence -> byte sequence", path=str(path))
    return ByteRewriter(data["decompose_map"]), ByteRewriter(data["merge_map"])


def myt5(directory: Path, config: Config) -> Data:
    """MyT5Tokenizer: byte_maps.json's rewriting over ByT5's byte ids, "$A </s>" ("$A </s> $B </s>")."""
    decompose, merge = read_byte_maps(directory / BYTE_MAPS)
    roles = [str(role(config, key, DEFAULT_ROLES["MyT5Tokenizer"][key])) for key in ROLE_ORDER]
    ids = {token: index for index, token in enumerate(roles)}
    decoder: Decoder = RewrittenBytesDecoder(decompose, merge)
    if config.get("clean_up_tokenization_spaces"):
        decoder = CleanedUp(decoder)
    return {"model": RewrittenBytes(len(roles), ids, decompose, merge), "decoder": decoder,
            "post_processor": ByT5Processing(roles[1], ids[roles[1]], dict(enumerate(roles))),
            "added_tokens": [{"id": index, "content": token, "single_word": False, "lstrip": True, "rstrip": True,
                              "normalized": True, "special": True} for index, token in enumerate(roles)]}


CLASSES: dict[str, Callable[[Path, Config], Data]] = {"MyT5Tokenizer": myt5}
