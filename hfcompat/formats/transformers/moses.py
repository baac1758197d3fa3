"""transformers' Moses-tokenizing classes: XLMTokenizer, FlaubertTokenizer, FSMTTokenizer, BioGptTokenizer.

Each runs sacremoses on the text between added tokens (pre_tokenizers/moses.py: the class's language and
steps), then BPE over each word with "</w>" glued to its last character, merged on strings as the Python
classes do (models/pair_rank_bpe.py, from vocab.json + merges.txt; FSMT encodes with vocab-src.json and
decodes with vocab-tgt.json). XLM and Flaubert decode by joining the tokens, "</w>" read as a space, the
ends stripped; FSMT and BioGpt detokenize the words with Moses (decoders/moses.py). In transformers 5.24
_tokenize is called without keyword arguments, so XLM always takes its English path (lang="en"): its
Chinese, Japanese and Thai paths (rjieba, KyTea, PyThaiNLP) and Romanian rewrite are never reached.
These components have no tokenizer.json form; saving one raises UnsupportedConversion.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any, Callable

from ...decoders import CleanedUp, Decoder, Fuse, RewrittenText
from ...decoders.moses import WORD_END, MosesDetokenizer
from ...errors import FormatError
from ...models.pair_rank_bpe import PairRankBPE
from ...models.subword_nmt import merge_ranks
from ...pre_tokenizers.moses import MosesPreTokenizer
from .classes import role, template
from .subword_nmt import read_vocab_json

Config = dict[str, Any]
Data = dict[str, Any]


def read_merges(path: Path) -> dict[tuple[str, str], int]:
    """The ranks of merges.txt as these classes read it: each line's first two fields (a "#version" line is a
    merge too, a count column is dropped); what follows the last newline is not read."""
    if not path.is_file():
        raise FormatError("the class reads this file and it is missing", path=str(path))
    try:
        lines = path.read_text(encoding="utf-8").split("\n")[:-1]
    except UnicodeDecodeError as error:
        raise FormatError(f"not UTF-8: {error}", path=str(path)) from None
    return merge_ranks(tuple(line.split()[:2]) for line in lines)


def _bpe(directory: Path, config: Config, vocab_file: str = "vocab.json",
         decode_file: str | None = None) -> PairRankBPE:
    """The class's word BPE over its vocabulary and merges.txt."""
    vocab = read_vocab_json(directory / vocab_file)
    decode_vocab = read_vocab_json(directory / decode_file) if decode_file else None
    unk = role(config, "unk_token", "<unk>") or "<unk>"
    if unk not in vocab:
        warnings.warn(f"{directory}: {vocab_file} has no {unk!r}, so transformers gives the id None to a piece "
                      "outside it; hfcompat raises TokenizationError there", UserWarning, stacklevel=5)
    return PairRankBPE(vocab, read_merges(directory / "merges.txt"), unk, decode_vocab)


def _pipeline(config: Config, model: PairRankBPE, pre_tokenizer: MosesPreTokenizer, decoder: Decoder,
              single: list[str], pair: list[str]) -> Data:
    """The pipeline dict: the class's template (its special tokens' ids from the vocabulary, or given when added);
    the decoder cleans up as transformers does when the config turns clean_up_tokenization_spaces on."""
    specials = [item for item in single + pair if not item.startswith("$")]
    names = [item.partition(":")[0] for item in specials]
    if config.get("clean_up_tokenization_spaces"):
        decoder = CleanedUp(decoder)
    return {"model": model, "pre_tokenizer": pre_tokenizer, "decoder": decoder, "added_tokens": [],
            "post_processor": template(single, pair, names, {"model": {"vocab": model.vocab}})}


def _joined_decoder() -> RewrittenText:
    """XLM's and Flaubert's decode: the tokens joined, "</w>" as a space, the ends stripped."""
    return RewrittenText(Fuse(), re.escape(WORD_END), " ", strip=True)


def _bos_sep_template(config: Config) -> tuple[list[str], list[str]]:
    """XLM's and Flaubert's "<s> $A </s>", pairs "<s> $A </s> $B:1 </s>:1"."""
    bos, sep = role(config, "bos_token", "<s>"), role(config, "sep_token", "</s>")
    return [f"{bos}:0", "$A:0", f"{sep}:0"], [f"{bos}:0", "$A:0", f"{sep}:0", "$B:1", f"{sep}:1"]


def xlm(directory: Path, config: Config) -> Data:
    """XLMTokenizer: English Moses with punctuation normalization, no escaping, then (do_lowercase_and_remove_accent,
    on by default) the words lowercased without accents."""
    moses = MosesPreTokenizer("en", lowercase_remove_accents=bool(config.get("do_lowercase_and_remove_accent", True)))
    return _pipeline(config, _bpe(directory, config), moses, _joined_decoder(), *_bos_sep_template(config))


def flaubert(directory: Path, config: Config) -> Data:
    """FlaubertTokenizer: `` and '' as ", NFC, lowercased with do_lowercase, then French Moses with punctuation
    normalization, no escaping."""
    moses = MosesPreTokenizer("fr", quotes_nfc=True, lowercase=bool(config.get("do_lowercase", False)))
    return _pipeline(config, _bpe(directory, config), moses, _joined_decoder(), *_bos_sep_template(config))


def fsmt(directory: Path, config: Config) -> Data:
    """FSMTTokenizer: lowercased with do_lower_case, Moses of the source language (punctuation normalized,
    escaped, aggressive dash splits) over vocab-src.json; decode through vocab-tgt.json and Moses of the
    target language; "$A </s>", pairs "$A </s> $B:1 </s>:1"."""
    langs = config.get("langs")
    if not (isinstance(langs, list) and len(langs) == 2 and all(isinstance(lang, str) for lang in langs)):
        raise FormatError(f"FSMTTokenizer needs `langs`, a list of two languages (e.g. [\"en\", \"ru\"]), "
                          f"got {langs!r}", path=str(directory / "tokenizer_config.json"), field="langs")
    source, target = langs
    moses = MosesPreTokenizer(source, escape=True, aggressive_dash_splits=True,
                              lowercase=bool(config.get("do_lower_case", False)))
    sep = role(config, "sep_token", "</s>")
    model = _bpe(directory, config, "vocab-src.json", "vocab-tgt.json")
    return _pipeline(config, model, moses, MosesDetokenizer(target), ["$A:0", f"{sep}:0"],
                     ["$A:0", f"{sep}:0", "$B:1", f"{sep}:1"])


def biogpt(directory: Path, config: Config) -> Data:
    """BioGptTokenizer: English Moses without punctuation normalization (escaped, aggressive dash splits);
    Moses decode; "</s> $A", pairs "</s> $A </s>:1 $B:1"."""
    moses = MosesPreTokenizer("en", escape=True, aggressive_dash_splits=True, normalize_punctuation=False)
    sep = role(config, "sep_token", "</s>")
    return _pipeline(config, _bpe(directory, config), moses, MosesDetokenizer("en"),
                     [f"{sep}:0", "$A:0"], [f"{sep}:0", "$A:0", f"{sep}:1", "$B:1"])


CLASSES: dict[str, Callable[[Path, Config], Data]] = {
    "XLMTokenizer": xlm,
    "FlaubertTokenizer": flaubert,
    "FSMTTokenizer": fsmt,
    "BioGptTokenizer": biogpt,
}
