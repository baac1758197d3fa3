"""The pipelines transformers builds from slow tokenizer files (vocab.txt, vocab.json + merges.txt)."""

from __future__ import annotations

from pathlib import Path

from .. import decoders, normalizers, pre_tokenizers, processors
from ..added_vocabulary import AddedToken
from ..errors import FormatError
from ..models.bpe import BPE
from ..models.wordpiece import WordPiece
from ..tokenizer import Tokenizer
from .vocab_files import read_merges_txt, read_vocab_json, read_vocab_txt

BERT_SPECIALS = ("[UNK]", "[SEP]", "[CLS]", "[PAD]", "[MASK]")


def bert_tokenizer(vocab_path: str | Path, lowercase: bool = True) -> Tokenizer:
    """BERT's WordPiece pipeline over a vocab.txt, as BertTokenizerFast builds it by default."""
    vocab = read_vocab_txt(vocab_path)
    for token in ("[UNK]", "[CLS]", "[SEP]"):
        if token not in vocab:
            raise FormatError(f"a BERT vocabulary needs {token}", path=str(vocab_path))
    tokenizer = Tokenizer(
        WordPiece(vocab, unk_token="[UNK]", continuing_subword_prefix="##",
                  max_input_chars_per_word=100),
        normalizer=normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True,
                                              strip_accents=None, lowercase=lowercase),
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
