"""Every tokenizer file of ../shared/refs, written to each format hfcompat writes and read back, encodes
the corpora as the owner library encodes the original file (issue 32: saving never drops state).

The owners: tokenizers for tokenizer.json (ids, tokens, offsets), sentencepiece for .model (ids and
pieces), tiktoken for rank files (ids), tokenizers' BertWordPieceTokenizer and ByteLevelBPETokenizer for
vocab.txt and vocab.json + merges.txt (the pipelines transformers' fast classes build; ids, tokens,
offsets). llama.cpp is not importable here, so a GGUF's reference is hfcompat's own reading of the
original file (its parity with llama.cpp's test vectors is test_gguf.py's business). Where an owner
gives no tokens or offsets, the read-back file's are compared with hfcompat on the original.
Truncation and padding are settings of a call (a .model, a rank file and a GGUF have none): they are
turned off on every side before the original is written. A .model holds no post-processor (sentencepiece
adds bos/eos as options of a call, hfcompat as options of `load`): a .model read back is compared without
special tokens on either side, as `verify` compares a .model with its source.

A destination hfcompat refuses (UnsupportedConversion: exact or nothing) must be one REFUSED lists,
with a reason containing the text given there; a file written must read back identical. The texts:
spread lines of each corpus (mixed scripts) plus seeded random Unicode lines.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pytest

import hfcompat
from hfcompat.formats.tiktoken.encodings import KNOWN_ENCODINGS

from conftest import corpus_sample, shared_file
from owner_outcomes import environment

LINES_PER_CORPUS = 60
RANDOM_LINES = 60

JSON_FILES = ["clip", "falcon", "gpt2", "phi-2", "phi-3-mini", "roberta-base", "t5", "whisper-large-v3"]
GGUF_FILES = ["aquila", "baichuan", "bert-bge", "command-r", "deepseek-coder", "deepseek-llm", "falcon", "gemma-4",
              "gpt-2", "gpt-neox", "llama-bpe", "llama-spm", "mpt", "nomic-bert-moe", "phi-3", "qwen2", "qwen35",
              "refact", "starcoder"]
SOURCES = ([f"refs/{name}/tokenizer.json" for name in JSON_FILES]
           + ["refs/albert/spiece.model", "refs/xlnet/spiece.model", "refs/llama2/tokenizer.model"]
           + [f"refs/tiktoken/{name}.tiktoken" for name in ("cl100k_base", "p50k_base", "r50k_base",
                                                            "whisper_multilingual")]
           + [f"refs/{name}/vocab.txt" for name in ("bert-base-cased", "bert-base-chinese",
                                                    "bert-base-multilingual-cased", "bert-base-uncased")]
           + [f"refs/{name}/vocab.json" for name in ("clip", "gpt2", "roberta-base")]
           + [f"refs/gguf/ggml-vocab-{name}.gguf" for name in GGUF_FILES])
DESTINATIONS = ["tokenizer.json", "tokenizer.model", "ranks.tiktoken", "vocab.gguf", "tekken.json", "directory"]

# (source, destination) -> text the refusal's reason contains. A conversion listed here must be refused,
# and one not listed written: the table is the record of what hfcompat will not write exactly.
REFUSED: dict[tuple[str, str], str] = {
    ('refs/clip/tokenizer.json', 'tokenizer.model'): "normalizer: NFC {'type': 'NFC'} has no",
    ('refs/clip/tokenizer.json', 'ranks.tiktoken'): "model: BPE with end_of_word_suffix='</w>'",
    ('refs/clip/tokenizer.json', 'vocab.gguf'): "model: BPE with end_of_word_suffix='</w>'",
    ('refs/clip/tokenizer.json', 'tekken.json'): "model: BPE with end_of_word_suffix='</w>'",
    ('refs/falcon/tokenizer.json', 'tokenizer.model'): 'pre_tokenizer: Punctuation, ByteLevel',
    ('refs/falcon/tokenizer.json', 'ranks.tiktoken'): 'pre_tokenizer: tiktoken needs one regex',
    ('refs/falcon/tokenizer.json', 'tekken.json'): 'pre_tokenizer: tiktoken needs one regex',
    ('refs/gpt2/tokenizer.json', 'tokenizer.model'): 'pre_tokenizer: ByteLevel: SentencePiece',
    ('refs/gpt2/tokenizer.json', 'tekken.json'): 'added tokens: tekken.json gives the special',
    ('refs/phi-2/tokenizer.json', 'tokenizer.model'): 'pre_tokenizer: ByteLevel: SentencePiece',
    ('refs/phi-2/tokenizer.json', 'ranks.tiktoken'): "added token '",
    ('refs/phi-2/tokenizer.json', 'vocab.gguf'): "added token '",
    ('refs/phi-2/tokenizer.json', 'tekken.json'): 'added tokens: tekken.json gives the special',
    ('refs/phi-3-mini/tokenizer.json', 'ranks.tiktoken'): 'normalizer: tiktoken has none (Sequence)',
    ('refs/phi-3-mini/tokenizer.json', 'vocab.gguf'): "added token '</s>': GGUF keeps no rstrip",
    ('refs/phi-3-mini/tokenizer.json', 'tekken.json'): 'normalizer: tiktoken has none (Sequence)',
    ('refs/roberta-base/tokenizer.json', 'tokenizer.model'): 'pre_tokenizer: ByteLevel: SentencePiece',
    ('refs/roberta-base/tokenizer.json', 'ranks.tiktoken'): 'post_processor: RobertaProcessing adds',
    ('refs/roberta-base/tokenizer.json', 'vocab.gguf'): "added token '<mask>': GGUF keeps no lstrip",
    ('refs/roberta-base/tokenizer.json', 'tekken.json'): 'post_processor: RobertaProcessing adds',
    ('refs/t5/tokenizer.json', 'tokenizer.model'): 'normalizer: SentencePiece .model applies',
    ('refs/t5/tokenizer.json', 'ranks.tiktoken'): 'tiktoken holds byte-level BPE only; this',
    ('refs/t5/tokenizer.json', 'tekken.json'): 'tiktoken holds byte-level BPE only; this',
    ('refs/whisper-large-v3/tokenizer.json', 'tokenizer.model'): 'pre_tokenizer: ByteLevel: SentencePiece',
    ('refs/whisper-large-v3/tokenizer.json', 'ranks.tiktoken'): 'post_processor: TemplateProcessing adds',
    ('refs/whisper-large-v3/tokenizer.json', 'vocab.gguf'): "added token '<|0.00|>': GGUF keeps no",
    ('refs/whisper-large-v3/tokenizer.json', 'tekken.json'): 'post_processor: TemplateProcessing adds',
    ('refs/albert/spiece.model', 'tokenizer.json'): 'normalizer: tokenizer.json applies the',
    ('refs/albert/spiece.model', 'ranks.tiktoken'): 'tiktoken holds byte-level BPE only; this',
    ('refs/albert/spiece.model', 'vocab.gguf'): 'pre_tokenizer: a GGUF t5 tokenizer is a',
    ('refs/albert/spiece.model', 'tekken.json'): 'tiktoken holds byte-level BPE only; this',
    ('refs/albert/spiece.model', 'directory'): 'normalizer: tokenizer.json applies the',
    ('refs/xlnet/spiece.model', 'tokenizer.json'): 'normalizer: SentencePiece leaves the',
    ('refs/xlnet/spiece.model', 'ranks.tiktoken'): 'tiktoken holds byte-level BPE only; this',
    ('refs/xlnet/spiece.model', 'vocab.gguf'): 'pre_tokenizer: a GGUF t5 tokenizer is a',
    ('refs/xlnet/spiece.model', 'tekken.json'): 'tiktoken holds byte-level BPE only; this',
    ('refs/xlnet/spiece.model', 'directory'): 'normalizer: SentencePiece leaves the',
    ('refs/llama2/tokenizer.model', 'ranks.tiktoken'): 'normalizer: tiktoken has none (Sequence)',
    ('refs/llama2/tokenizer.model', 'tekken.json'): 'normalizer: tiktoken has none (Sequence)',
    ('refs/tiktoken/cl100k_base.tiktoken', 'tokenizer.model'): 'model: BPE vocabulary ids are not 0..n-1',
    ('refs/tiktoken/cl100k_base.tiktoken', 'vocab.gguf'): 'vocabulary: no token has id 100256; a GGUF',
    ('refs/tiktoken/cl100k_base.tiktoken', 'tekken.json'): 'added tokens: tekken.json gives the special',
    ('refs/tiktoken/p50k_base.tiktoken', 'tokenizer.model'): 'pre_tokenizer: Split, ByteLevel',
    ('refs/tiktoken/p50k_base.tiktoken', 'vocab.gguf'): 'pre_tokenizer: a GGUF names its',
    ('refs/tiktoken/p50k_base.tiktoken', 'tekken.json'): 'added tokens: tekken.json gives the special',
    ('refs/tiktoken/r50k_base.tiktoken', 'tokenizer.model'): 'pre_tokenizer: Split, ByteLevel',
    ('refs/tiktoken/r50k_base.tiktoken', 'vocab.gguf'): 'pre_tokenizer: a GGUF names its',
    ('refs/tiktoken/r50k_base.tiktoken', 'tekken.json'): 'added tokens: tekken.json gives the special',
    ('refs/tiktoken/whisper_multilingual.tiktoken', 'tokenizer.model'): 'pre_tokenizer: Split, ByteLevel',
    ('refs/tiktoken/whisper_multilingual.tiktoken', 'tekken.json'): "model: tekken.json needs the 256 single bytes",
    ('refs/tiktoken/whisper_multilingual.tiktoken', 'vocab.gguf'): 'pre_tokenizer: a GGUF names its',
    ('refs/bert-base-cased/vocab.txt', 'tokenizer.model'): 'model: WordPiece: SentencePiece runs',
    ('refs/bert-base-cased/vocab.txt', 'ranks.tiktoken'): 'tiktoken holds byte-level BPE only; this',
    ('refs/bert-base-cased/vocab.txt', 'tekken.json'): 'tiktoken holds byte-level BPE only; this',
    ('refs/bert-base-chinese/vocab.txt', 'tokenizer.model'): 'model: WordPiece: SentencePiece runs',
    ('refs/bert-base-chinese/vocab.txt', 'ranks.tiktoken'): 'tiktoken holds byte-level BPE only; this',
    ('refs/bert-base-chinese/vocab.txt', 'tekken.json'): 'tiktoken holds byte-level BPE only; this',
    ('refs/bert-base-multilingual-cased/vocab.txt', 'tokenizer.model'): 'model: WordPiece: SentencePiece runs',
    ('refs/bert-base-multilingual-cased/vocab.txt', 'ranks.tiktoken'): 'tiktoken holds byte-level BPE only; this',
    ('refs/bert-base-multilingual-cased/vocab.txt', 'tekken.json'): 'tiktoken holds byte-level BPE only; this',
    ('refs/bert-base-uncased/vocab.txt', 'tokenizer.model'): 'model: WordPiece: SentencePiece runs',
    ('refs/bert-base-uncased/vocab.txt', 'ranks.tiktoken'): 'tiktoken holds byte-level BPE only; this',
    ('refs/bert-base-uncased/vocab.txt', 'tekken.json'): 'tiktoken holds byte-level BPE only; this',
    ('refs/clip/vocab.json', 'tokenizer.model'): 'pre_tokenizer: ByteLevel: SentencePiece',
    ('refs/clip/vocab.json', 'ranks.tiktoken'): "model: merge 140 't' + 'er</w>' breaks rank",
    ('refs/clip/vocab.json', 'tekken.json'): 'added tokens: tekken.json gives the special',
    ('refs/gpt2/vocab.json', 'tokenizer.model'): 'pre_tokenizer: ByteLevel: SentencePiece',
    ('refs/gpt2/vocab.json', 'tekken.json'): 'added tokens: tekken.json gives the special',
    ('refs/roberta-base/vocab.json', 'tokenizer.model'): 'pre_tokenizer: ByteLevel: SentencePiece',
    ('refs/roberta-base/vocab.json', 'ranks.tiktoken'): "model: merge 0 'Ġ' + 't' breaks rank order",
    ('refs/roberta-base/vocab.json', 'tekken.json'): 'added tokens: tekken.json gives the special',
    ('refs/gguf/ggml-vocab-aquila.gguf', 'tokenizer.model'): 'pre_tokenizer: Split, Split, Split',
    ('refs/gguf/ggml-vocab-aquila.gguf', 'ranks.tiktoken'): 'pre_tokenizer: tiktoken needs one regex',
    ('refs/gguf/ggml-vocab-aquila.gguf', 'tekken.json'): 'pre_tokenizer: tiktoken needs one regex',
    ('refs/gguf/ggml-vocab-baichuan.gguf', 'tokenizer.model'): 'model: SentencePiece needs an unknown',
    ('refs/gguf/ggml-vocab-baichuan.gguf', 'ranks.tiktoken'): 'normalizer: tiktoken has none (Sequence)',
    ('refs/gguf/ggml-vocab-baichuan.gguf', 'tekken.json'): 'normalizer: tiktoken has none (Sequence)',
    ('refs/gguf/ggml-vocab-bert-bge.gguf', 'tokenizer.model'): 'model: WordPiece: SentencePiece runs',
    ('refs/gguf/ggml-vocab-bert-bge.gguf', 'ranks.tiktoken'): 'tiktoken holds byte-level BPE only; this',
    ('refs/gguf/ggml-vocab-bert-bge.gguf', 'tekken.json'): 'tiktoken holds byte-level BPE only; this',
    ('refs/gguf/ggml-vocab-command-r.gguf', 'tokenizer.model'): "normalizer: NFC {'type': 'NFC'} has no",
    ('refs/gguf/ggml-vocab-command-r.gguf', 'ranks.tiktoken'): 'normalizer: tiktoken has none (NFC)',
    ('refs/gguf/ggml-vocab-command-r.gguf', 'tekken.json'): 'normalizer: tiktoken has none (NFC)',
    ('refs/gguf/ggml-vocab-deepseek-coder.gguf', 'tokenizer.model'): 'pre_tokenizer: Split, Split, Split, Digits',
    ('refs/gguf/ggml-vocab-deepseek-coder.gguf', 'ranks.tiktoken'): 'post_processor: TemplateProcessing adds',
    ('refs/gguf/ggml-vocab-deepseek-coder.gguf', 'tekken.json'): 'post_processor: TemplateProcessing adds',
    ('refs/gguf/ggml-vocab-deepseek-llm.gguf', 'tokenizer.model'): 'pre_tokenizer: Split, Split, Split, Split',
    ('refs/gguf/ggml-vocab-deepseek-llm.gguf', 'ranks.tiktoken'): 'post_processor: TemplateProcessing adds',
    ('refs/gguf/ggml-vocab-deepseek-llm.gguf', 'tekken.json'): 'post_processor: TemplateProcessing adds',
    ('refs/gguf/ggml-vocab-falcon.gguf', 'tokenizer.model'): 'pre_tokenizer: Punctuation, ByteLevel',
    ('refs/gguf/ggml-vocab-falcon.gguf', 'ranks.tiktoken'): 'pre_tokenizer: tiktoken needs one regex',
    ('refs/gguf/ggml-vocab-falcon.gguf', 'tekken.json'): 'pre_tokenizer: tiktoken needs one regex',
    ('refs/gguf/ggml-vocab-gemma-4.gguf', 'tokenizer.model'): 'pre_tokenizer: Split: SentencePiece splits',
    ('refs/gguf/ggml-vocab-gemma-4.gguf', 'ranks.tiktoken'): 'normalizer: tiktoken has none (Replace)',
    ('refs/gguf/ggml-vocab-gemma-4.gguf', 'tekken.json'): 'normalizer: tiktoken has none (Replace)',
    ('refs/gguf/ggml-vocab-gpt-2.gguf', 'tokenizer.model'): 'pre_tokenizer: ByteLevel: SentencePiece',
    ('refs/gguf/ggml-vocab-gpt-2.gguf', 'tekken.json'): 'added tokens: tekken.json gives the special',
    ('refs/gguf/ggml-vocab-gpt-neox.gguf', 'tokenizer.model'): 'pre_tokenizer: Split, Split, Split',
    ('refs/gguf/ggml-vocab-gpt-neox.gguf', 'ranks.tiktoken'): 'pre_tokenizer: tiktoken needs one regex',
    ('refs/gguf/ggml-vocab-gpt-neox.gguf', 'tekken.json'): 'pre_tokenizer: tiktoken needs one regex',
    ('refs/gguf/ggml-vocab-llama-bpe.gguf', 'tokenizer.model'): 'pre_tokenizer: ByteLevel: SentencePiece',
    ('refs/gguf/ggml-vocab-llama-bpe.gguf', 'ranks.tiktoken'): 'post_processor: TemplateProcessing adds',
    ('refs/gguf/ggml-vocab-llama-bpe.gguf', 'tekken.json'): 'post_processor: TemplateProcessing adds',
    ('refs/gguf/ggml-vocab-llama-spm.gguf', 'ranks.tiktoken'): 'normalizer: tiktoken has none (Sequence)',
    ('refs/gguf/ggml-vocab-llama-spm.gguf', 'tekken.json'): 'normalizer: tiktoken has none (Sequence)',
    ('refs/gguf/ggml-vocab-mpt.gguf', 'tokenizer.model'): "normalizer: NFC {'type': 'NFC'} has no",
    ('refs/gguf/ggml-vocab-mpt.gguf', 'ranks.tiktoken'): 'normalizer: tiktoken has none (NFC)',
    ('refs/gguf/ggml-vocab-mpt.gguf', 'tekken.json'): 'normalizer: tiktoken has none (NFC)',
    ('refs/gguf/ggml-vocab-nomic-bert-moe.gguf', 'tokenizer.model'): 'normalizer: SentencePiece .model applies',
    ('refs/gguf/ggml-vocab-nomic-bert-moe.gguf', 'ranks.tiktoken'): 'tiktoken holds byte-level BPE only; this',
    ('refs/gguf/ggml-vocab-nomic-bert-moe.gguf', 'tekken.json'): 'tiktoken holds byte-level BPE only; this',
    ('refs/gguf/ggml-vocab-phi-3.gguf', 'ranks.tiktoken'): 'normalizer: tiktoken has none (Sequence)',
    ('refs/gguf/ggml-vocab-phi-3.gguf', 'tekken.json'): 'normalizer: tiktoken has none (Sequence)',
    ('refs/gguf/ggml-vocab-qwen2.gguf', 'tokenizer.model'): "normalizer: NFC {'type': 'NFC'} has no",
    ('refs/gguf/ggml-vocab-qwen2.gguf', 'ranks.tiktoken'): 'normalizer: tiktoken has none (NFC)',
    ('refs/gguf/ggml-vocab-qwen2.gguf', 'tekken.json'): 'normalizer: tiktoken has none (NFC)',
    ('refs/gguf/ggml-vocab-qwen35.gguf', 'tokenizer.model'): 'pre_tokenizer: ByteLevel: SentencePiece',
    ('refs/gguf/ggml-vocab-qwen35.gguf', 'ranks.tiktoken'): "added token '[PAD151646]' is not special",
    ('refs/gguf/ggml-vocab-qwen35.gguf', 'tekken.json'): 'added tokens: tekken.json gives the special',
    ('refs/gguf/ggml-vocab-refact.gguf', 'tokenizer.model'): 'pre_tokenizer: Digits, ByteLevel',
    ('refs/gguf/ggml-vocab-refact.gguf', 'ranks.tiktoken'): 'pre_tokenizer: tiktoken needs one regex',
    ('refs/gguf/ggml-vocab-refact.gguf', 'tekken.json'): 'pre_tokenizer: tiktoken needs one regex',
    ('refs/gguf/ggml-vocab-starcoder.gguf', 'tokenizer.model'): 'pre_tokenizer: Digits, ByteLevel',
    ('refs/gguf/ggml-vocab-starcoder.gguf', 'ranks.tiktoken'): 'pre_tokenizer: tiktoken needs one regex',
    ('refs/gguf/ggml-vocab-starcoder.gguf', 'tekken.json'): 'pre_tokenizer: tiktoken needs one regex',
}


@dataclass
class Reference:
    """What the owner gives for one text: ids, and tokens and offsets where it gives them."""

    ids: list[int]
    tokens: list[str] | None
    offsets: list[tuple[int, int]] | None


@lru_cache(maxsize=1)
def texts() -> tuple[str, ...]:
    """Spread corpus lines of every script the corpora hold, then seeded random Unicode lines."""
    lines = [line for name in ("botchan", "taylorswift", "wagahaiwa", "pku_test")
             for line in corpus_sample(name, LINES_PER_CORPUS)]
    rng = random.Random(32)
    blocks = [(0x20, 0x250), (0x370, 0x530), (0x900, 0xE00), (0x1100, 0x1200), (0x2000, 0x2C00),
              (0x3000, 0x3100), (0x4E00, 0x4F00), (0xAC00, 0xAD00), (0xFB00, 0xFFF0), (0x1F300, 0x1F650)]
    for _ in range(RANDOM_LINES):
        low, high = rng.choice(blocks)
        lines.append("".join(rng.choice([chr(rng.randrange(low, high)), " ", "a", "\u0301"])
                             for _ in range(rng.randint(1, 24))))
    return tuple(lines)


def _tokenizers_reference(tokenizer: Any) -> Callable[[str], Reference]:
    """A `tokenizers` tokenizer's ids, tokens and offsets (without truncation or padding)."""
    tokenizer.no_truncation()
    tokenizer.no_padding()

    def encode(text: str, specials: bool = True) -> Reference:
        encoding = tokenizer.encode(text, add_special_tokens=specials)
        return Reference(encoding.ids, encoding.tokens, [tuple(span) for span in encoding.offsets])
    return encode


def _sentencepiece_reference(path: Path) -> Callable[[str], Reference]:
    """sentencepiece's ids and pieces (an unknown piece stands as its text: no token compared there)."""
    import sentencepiece

    processor = sentencepiece.SentencePieceProcessor(model_file=str(path))
    unknown = processor.unk_id()

    def encode(text: str, specials: bool = True) -> Reference:
        ids = processor.encode(text)
        pieces = processor.encode(text, out_type=str)
        return Reference(ids, [piece if i != unknown else "?" for i, piece in zip(ids, pieces)], None)
    return encode


def _tiktoken_reference(path: Path) -> Callable[[str], Reference]:
    """tiktoken on the rank file, with the pattern and special tokens hfcompat reads it with."""
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    known = _known_encoding(path)
    with environment("TIKTOKEN_CACHE_DIR", ""):
        ranks = load_tiktoken_bpe(str(path))
    special = {name: i for name, i in known.special_tokens.items() if i >= len(ranks)}
    encoding = tiktoken.Encoding(path.stem, pat_str=known.pattern, mergeable_ranks=ranks, special_tokens=special)
    return lambda text, specials=True: Reference(encoding.encode_ordinary(text), None, None)


def _known_encoding(path: Path) -> Any:
    """The published encoding a rank file belongs to (Whisper's multilingual file: GPT-2's pattern)."""
    return KNOWN_ENCODINGS.get(path.stem, KNOWN_ENCODINGS["r50k_base"])


def _hfcompat_reference(tokenizer: hfcompat.Tokenizer) -> Callable[[str], Reference]:
    """hfcompat on the original file (GGUF: llama.cpp cannot run here)."""
    def encode(text: str, specials: bool = True) -> Reference:
        encoding = tokenizer.encode(text, add_special_tokens=specials)
        return Reference(encoding.ids, encoding.tokens, list(encoding.offsets))
    return encode


def _without_call_settings(tokenizer: hfcompat.Tokenizer) -> None:
    """Turn truncation and padding off."""
    tokenizer.no_truncation()
    tokenizer.no_padding()


@lru_cache(maxsize=1)
def original(relative: str) -> hfcompat.Tokenizer:
    """hfcompat's tokenizer of a refs file (Whisper's rank file with GPT-2's pattern, as tiktoken runs it)."""
    path = shared_file(relative)
    if path.suffix == ".tiktoken" and path.stem not in KNOWN_ENCODINGS:
        tokenizer = hfcompat.load(path, pattern=_known_encoding(path).pattern)
    else:
        tokenizer = hfcompat.load(path)
    _without_call_settings(tokenizer)
    return tokenizer


@lru_cache(maxsize=1)
def reference(relative: str) -> tuple[Callable[[str], Reference], Callable[[str], Reference]]:
    """(the owner's encode, hfcompat's encode) of the original file."""
    path = shared_file(relative)
    ours = _hfcompat_reference(original(relative))
    if path.name == "tokenizer.json":
        import tokenizers

        return _tokenizers_reference(tokenizers.Tokenizer.from_file(str(path))), ours
    if path.suffix == ".model":
        return _sentencepiece_reference(path), ours
    if path.suffix == ".tiktoken":
        return _tiktoken_reference(path), ours
    if path.name == "vocab.txt":
        from tokenizers.implementations import BertWordPieceTokenizer

        return _tokenizers_reference(BertWordPieceTokenizer(str(path), lowercase=True)), ours
    if path.name == "vocab.json":
        from tokenizers.implementations import ByteLevelBPETokenizer

        return _tokenizers_reference(ByteLevelBPETokenizer(str(path), str(path.with_name("merges.txt")))), ours
    return ours, ours


def _mismatch(text: str, got: Reference, owner: Reference, ours: Reference) -> str | None:
    """What differs between the read-back file's result and the reference, or None."""
    if got.ids != owner.ids:
        return f"ids {got.ids} != owner's {owner.ids}"
    tokens = owner.tokens if owner.tokens is not None else ours.tokens
    if owner.tokens is not None and "?" in owner.tokens:
        got_tokens = [token if want != "?" else "?" for token, want in zip(got.tokens, owner.tokens)]
    else:
        got_tokens = got.tokens
    if got_tokens != tokens:
        return f"tokens {got.tokens} != {tokens}"
    offsets = owner.offsets if owner.offsets is not None else ours.offsets
    if got.offsets != offsets:
        return f"offsets {got.offsets} != {offsets}"
    return None


@pytest.mark.slow
@pytest.mark.conformance
@pytest.mark.parametrize("destination", DESTINATIONS)
@pytest.mark.parametrize("source", SOURCES)
def test_written_file_reads_back_as_the_owner_runs_the_original(source: str, destination: str,
                                                                 tmp_path: Path) -> None:
    """Write a refs file to one format: refused as REFUSED says, or read back identical on every text."""
    tokenizer = original(source)
    target = tmp_path / ("saved" if destination == "directory" else destination)
    expected_refusal = REFUSED.get((source, destination))
    try:
        tokenizer.save(str(target))
    except hfcompat.UnsupportedConversion as refusal:
        assert expected_refusal is not None, f"refused, and REFUSED does not list it: {refusal}"
        assert expected_refusal in str(refusal)
        return
    assert expected_refusal is None, f"written, though REFUSED says it is refused ({expected_refusal})"
    back = hfcompat.load(target)
    owner, ours = reference(source)
    specials = target.suffix != ".model"
    failures = []
    for text in texts():
        encoding = back.encode(text, add_special_tokens=specials)
        got = Reference(encoding.ids, encoding.tokens, list(encoding.offsets))
        found = _mismatch(text, got, owner(text, specials), ours(text, specials))
        if found is not None:
            failures.append(f"{text!r}: {found}")
    assert not failures, f"{len(failures)} of {len(texts())} texts differ; first: {failures[:3]}"
