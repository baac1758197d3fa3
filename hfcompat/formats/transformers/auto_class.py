"""Which tokenizer class AutoTokenizer.from_pretrained loads for a directory (transformers 5.x's rules).

tokenizer_config.json names a class, but config.json's model_type can overrule it: transformers keeps a
class per model type (model_types.json, read from transformers' auto mapping) and a list of model types
whose hub configs name the wrong class. A class that disagrees with its model type's is kept unless
the model type is on that list; when the model type's class is TokenizersBackend the file is taken as it
is. A directory that names LlamaTokenizer over a byte-level tokenizer.json is loaded as TokenizersBackend.
Nothing here calls transformers.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import classes

MODEL_TYPES_FILE = Path(__file__).with_name("model_types.json")
MODEL_CONFIG_FILE = "config.json"
TOKENIZER_FILE = "tokenizer.json"
AS_IS = "TokenizersBackend"
# Classes transformers treats as "no class of its own" when it compares the hub's class with the model type's.
BACKENDS = {"TokenizersBackend", "PythonBackend", "PreTrainedTokenizerFast"}
MISTRAL = "MistralCommonBackend"
MISTRAL_FILE = "tekken.json"


@lru_cache(maxsize=1)
def model_types() -> dict[str, Any]:
    """model_types.json: model type -> tokenizer class, and the model types whose hub class is overruled."""
    return json.loads(MODEL_TYPES_FILE.read_text(encoding="utf-8"))


def read_model_config(directory: Path) -> dict[str, Any]:
    """config.json's fields that pick the tokenizer (model_type, model_name, tokenizer_class), {} when absent
    or unreadable (transformers then goes on without it)."""
    path = directory / MODEL_CONFIG_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def auto_class(directory: Path, config: dict[str, Any], model: dict[str, Any] | None = None) -> str | None:
    """The class AutoTokenizer loads for the directory (without "Fast"), or None when nothing names one; `model`
    stands for config.json when the caller passes AutoTokenizer a model config (RagTokenizer does)."""
    if _auto_tokenizer_map(config):
        return classes.class_name(config)
    model = read_model_config(directory) if model is None else model
    model_type = model.get("model_type") if isinstance(model.get("model_type"), str) else None
    overruled = set(model_types()["hub_class_overruled"])
    wrong_hub_class = model_type in overruled or model.get("model_name") in overruled
    registered = model_types()["tokenizer_class"].get(model_type or "")
    hub_class = _text(config.get("tokenizer_class")) or _text(model.get("tokenizer_class"))
    if hub_class and classes.strip_fast(hub_class) in classes.BYTE_LEVEL_MEANS_AS_IS and registered != MISTRAL \
            and not wrong_hub_class and _byte_level_file(directory):
        return AS_IS
    if hub_class and registered and classes.strip_fast(registered) != classes.strip_fast(hub_class):
        return _overruled(directory, classes.strip_fast(registered), classes.strip_fast(hub_class), wrong_hub_class)
    if hub_class:
        return classes.strip_fast(hub_class)
    if registered:
        return AS_IS if registered == MISTRAL and not (directory / MISTRAL_FILE).exists() else registered
    return None


def _overruled(directory: Path, registered: str, hub_class: str, wrong_hub_class: bool) -> str:
    """The class loaded when the hub's class differs from the model type's."""
    if registered not in BACKENDS | {MISTRAL}:
        chosen = registered if wrong_hub_class else hub_class
        if _known(chosen) and chosen not in BACKENDS:
            return chosen
    if registered == MISTRAL and (directory / MISTRAL_FILE).exists():
        return MISTRAL
    return AS_IS


def _known(name: str) -> bool:
    """True for a class transformers has (any other name it loads as TokenizersBackend)."""
    return name in classes.CLASSES or name in classes.NOT_BUILT or name in classes.AS_IS_CLASSES


def _byte_level_file(directory: Path) -> bool:
    """True when tokenizer.json's text mentions "ByteLevel" anywhere (transformers' own test)."""
    path = directory / TOKENIZER_FILE
    return path.is_file() and '"ByteLevel"' in path.read_text(encoding="utf-8", errors="replace")


def _auto_tokenizer_map(config: dict[str, Any]) -> Any:
    """The config's auto_map entry for AutoTokenizer (remote code), or None."""
    auto_map = config.get("auto_map")
    if isinstance(auto_map, (list, tuple)):
        return auto_map
    return auto_map.get("AutoTokenizer") if isinstance(auto_map, dict) else None


def _text(value: Any) -> str | None:
    """A string field, else None."""
    return value if isinstance(value, str) and value else None
