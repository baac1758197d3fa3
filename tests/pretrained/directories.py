"""transformers directories made by transformers itself, for the load(dir) tests.

`slow_directory` puts slow files and a tokenizer_config.json naming a class into a directory (what
a hub repository without tokenizer.json holds); `saved_by_transformers` loads a directory with
AutoTokenizer and writes it back with transformers' own save_pretrained (tokenizer.json + config).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from .auto_harness import auto_tokenizer

# name -> (files of ../shared/refs, tokenizer_config.json)
SLOW = {
    "bert-cased": (["bert-base-cased/vocab.txt"], {"tokenizer_class": "BertTokenizer", "do_lower_case": False}),
    "bert-uncased": (["bert-base-uncased/vocab.txt"], {"tokenizer_class": "BertTokenizer"}),
    "bert-chinese": (["bert-base-chinese/vocab.txt"],
                     {"tokenizer_class": "BertTokenizerFast", "do_lower_case": False,
                      "tokenize_chinese_chars": True}),
    "gpt2": (["gpt2/vocab.json", "gpt2/merges.txt"], {"tokenizer_class": "GPT2Tokenizer"}),
    "gpt2-prefix-bos": (["gpt2/vocab.json", "gpt2/merges.txt"],
                        {"tokenizer_class": "GPT2TokenizerFast", "add_prefix_space": True,
                         "add_bos_token": True, "bos_token": "<|endoftext|>"}),
    "roberta": (["roberta-base/vocab.json", "roberta-base/merges.txt"], {"tokenizer_class": "RobertaTokenizer"}),
    "clip": (["clip/vocab.json", "clip/merges.txt"], {"tokenizer_class": "CLIPTokenizer"}),
    "qwen2": (["gpt2/vocab.json", "gpt2/merges.txt"], {"tokenizer_class": "Qwen2TokenizerFast"}),
    "gpt-neox-bos-eos": (["gpt2/vocab.json", "gpt2/merges.txt"],
                         {"tokenizer_class": "GPTNeoXTokenizer", "add_bos_token": True, "add_eos_token": True}),
    "llama": (["llama2/tokenizer.model"], {"tokenizer_class": "LlamaTokenizer", "add_bos_token": True}),
    "albert": (["albert/spiece.model"], {"tokenizer_class": "AlbertTokenizer"}),
    "xlnet": (["xlnet/spiece.model"], {"tokenizer_class": "XLNetTokenizer"}),
}
# name -> (tokenizer.json of ../shared/refs, tokenizer_config.json)
FROM_JSON = {
    "t5": ("t5/tokenizer.json", {"tokenizer_class": "T5Tokenizer"}),
    "phi-3-mini-llama": ("phi-3-mini/tokenizer.json", {"tokenizer_class": "LlamaTokenizerFast",
                                                       "add_bos_token": True, "bos_token": "<s>"}),
    "whisper-as-is": ("whisper-large-v3/tokenizer.json", {"tokenizer_class": "TokenizersBackend"}),
    "roberta-json": ("roberta-base/tokenizer.json", {"tokenizer_class": "RobertaTokenizerFast",
                                                     "trim_offsets": False}),
    # transformers loads a byte-level tokenizer.json under LlamaTokenizer as it is (TokenizersBackend).
    "phi-2-llama-byte-level": ("phi-2/tokenizer.json", {"tokenizer_class": "LlamaTokenizerFast",
                                                        "bos_token": "<|endoftext|>"}),
    "phi-3-code-llama-no-prefix": ("phi-3-mini/tokenizer.json", {"tokenizer_class": "CodeLlamaTokenizer",
                                                                "add_prefix_space": False, "fill_token": None}),
    "phi-3-gemma": ("phi-3-mini/tokenizer.json", {"tokenizer_class": "GemmaTokenizerFast", "bos_token": "<s>",
                                                  "eos_token": "</s>", "pad_token": "<unk>", "mask_token": None}),
    "t5-xlm-roberta-no-prefix": ("t5/tokenizer.json", {"tokenizer_class": "XLMRobertaTokenizerFast",
                                                      "add_prefix_space": False, "bos_token": "<pad>"}),
    # "<s>" is not in t5's file: transformers adds it, then XLM-R's template takes its new id.
    "t5-xlm-roberta-new-bos": ("t5/tokenizer.json", {"tokenizer_class": "XLMRobertaTokenizerFast"}),
    "phi-3-llama-legacy": ("phi-3-mini/tokenizer.json", {"tokenizer_class": "LlamaTokenizer", "legacy": True}),
    "gpt2-qwen2-prefix": ("gpt2/tokenizer.json", {"tokenizer_class": "Qwen2Tokenizer", "add_prefix_space": True}),
    "falcon-qwen3_5": ("falcon/tokenizer.json", {"tokenizer_class": "Qwen3_5Tokenizer"}),
    "falcon-cohere-prefix": ("falcon/tokenizer.json", {"tokenizer_class": "CohereTokenizer", "add_prefix_space": True,
                                                      "bos_token": ">>ABSTRACT<<", "eos_token": "<|endoftext|>"}),
    "gpt2-gpt-neox-options": ("gpt2/tokenizer.json", {"tokenizer_class": "GPTNeoXTokenizer", "add_prefix_space": True,
                                                      "trim_offsets": False, "add_bos_token": True}),
}


def slow_directory(refs: Path, name: str, directory: Path) -> Path:
    """Slow files + tokenizer_config.json, as a repository without tokenizer.json holds them."""
    files, config = SLOW[name]
    directory.mkdir(parents=True, exist_ok=True)
    for relative in files:
        shutil.copy(refs / relative, directory / Path(relative).name)
    (directory / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    return directory


def json_directory(refs: Path, name: str, directory: Path) -> Path:
    """A tokenizer.json + tokenizer_config.json naming a class that may rebuild the pipeline."""
    relative, config = FROM_JSON[name]
    directory.mkdir(parents=True, exist_ok=True)
    shutil.copy(refs / relative, directory / "tokenizer.json")
    (directory / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    return directory


def saved_by_transformers(source: Path, directory: Path) -> tuple[Path, Any]:
    """AutoTokenizer.from_pretrained(source).save_pretrained(directory); returns it and the loaded one."""
    auto = auto_tokenizer(source)
    auto.save_pretrained(str(directory))
    return directory, auto
