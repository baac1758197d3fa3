"""A transformers tokenizer class that runs hfcompat: for pipelines tokenizer.json cannot hold.

`save_pretrained(tok, dir, remote_code=True)` writes hfcompat's own tokenizer file, this
module's loader (tokenization_hfcompat.py) and an `auto_map` naming it, so that
`AutoTokenizer.from_pretrained(dir, trust_remote_code=True)` builds `HfcompatTokenizer`, which
encodes and decodes with hfcompat itself (ids, type ids, masks, offsets, truncation and
padding all come from hfcompat's pipeline). Importing this module needs transformers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from transformers import PreTrainedTokenizer
from transformers.tokenization_utils_base import BatchEncoding, PaddingStrategy, TruncationStrategy

# Absolute imports only: transformers' save_pretrained copies this file into the directory it
# writes (as a remote-code module), where relative imports would not resolve.
from hfcompat.files import atomic_write_text
from hfcompat.formats.transformers.pretrained import HFCOMPAT_FILE, read_hfcompat_file, remote_code_files
from hfcompat.segmentation.pre_tokenizer import BIGRAM_FILE, DICTIONARY_FILE, HMM_FILE


class HfcompatTokenizer(PreTrainedTokenizer):
    """transformers' tokenizer API over an hfcompat Tokenizer read from hfcompat_tokenizer.json."""

    # The segmentation files are listed so that a hub download fetches them beside hfcompat_file,
    # where its entries name them (a second segmenter's files, "_2", are not fetched).
    vocab_files_names = {"hfcompat_file": HFCOMPAT_FILE, "segmentation_dictionary": DICTIONARY_FILE,
                         "segmentation_hmm": HMM_FILE, "segmentation_bigram": BIGRAM_FILE}
    model_input_names = ["input_ids", "token_type_ids", "attention_mask"]

    def __init__(self, hfcompat_file: str | None = None, tokenizer_object: Any = None,
                 segmentation_dictionary: str | None = None, segmentation_hmm: str | None = None,
                 segmentation_bigram: str | None = None, **kwargs: Any):
        if tokenizer_object is None:
            if hfcompat_file is None:
                raise ValueError(f"HfcompatTokenizer needs {HFCOMPAT_FILE} (hfcompat_file)")
            tokenizer_object = read_hfcompat_file(hfcompat_file)
        tokenizer_object.no_truncation()
        tokenizer_object.no_padding()
        self.hfcompat = tokenizer_object
        self.hfcompat_file = hfcompat_file
        super().__init__(**kwargs)

    # ----- vocabulary -------------------------------------------------------------------

    @property
    def vocab_size(self) -> int:
        """The model's vocabulary size (without added tokens)."""
        return self.hfcompat.get_vocab_size(with_added_tokens=False)

    def get_vocab(self) -> dict[str, int]:
        """Every token -> id, added tokens included."""
        return self.hfcompat.get_vocab(with_added_tokens=True)

    def __len__(self) -> int:
        return self.hfcompat.get_vocab_size(with_added_tokens=True)

    def _convert_token_to_id(self, token: str) -> int:
        found = self.hfcompat.token_to_id(token)
        return found if found is not None else self.unk_token_id

    def _convert_id_to_token(self, index: int) -> str:
        return self.hfcompat.id_to_token(index)

    def tokenize(self, text: str, **kwargs: Any) -> list[str]:
        """hfcompat's tokens of `text` (added tokens, normalizer and pre-tokenizer included)."""
        return list(self.hfcompat.encode(text, add_special_tokens=False).tokens)

    def _tokenize(self, text: str, **kwargs: Any) -> list[str]:
        return self.tokenize(text)

    def convert_tokens_to_string(self, tokens: list[str]) -> str:
        """The decoder over token strings."""
        decoder = self.hfcompat.decoder
        return decoder.decode(tokens) if decoder is not None else " ".join(tokens)

    def _decode(self, token_ids: Any, skip_special_tokens: bool = False,
                clean_up_tokenization_spaces: bool | None = None, **kwargs: Any) -> str:
        ids = [token_ids] if isinstance(token_ids, int) else list(token_ids)
        text = self.hfcompat.decode(ids, skip_special_tokens=skip_special_tokens)
        if clean_up_tokenization_spaces:
            text = self.clean_up_tokenization(text)
        return text

    # ----- encoding ---------------------------------------------------------------------

    def _encode_plus(self, text: Any, text_pair: Any = None, add_special_tokens: bool = True,
                     padding_strategy: PaddingStrategy = PaddingStrategy.DO_NOT_PAD,
                     truncation_strategy: TruncationStrategy = TruncationStrategy.DO_NOT_TRUNCATE,
                     max_length: int | None = None, stride: int = 0, is_split_into_words: bool = False,
                     pad_to_multiple_of: int | None = None, padding_side: str | None = None,
                     return_tensors: Any = None, return_token_type_ids: bool | None = None,
                     return_attention_mask: bool | None = None, return_overflowing_tokens: bool = False,
                     return_special_tokens_mask: bool = False, return_offsets_mapping: bool = False,
                     return_length: bool = False, verbose: bool = True, **kwargs: Any) -> BatchEncoding:
        """Encode one input or a batch with hfcompat's truncation and padding."""
        batched = isinstance(text, (list, tuple)) and bool(text) and (
            not is_split_into_words or isinstance(text[0], (list, tuple)))
        texts = list(text) if batched else [text]
        if text_pair is not None:
            pairs = list(text_pair) if batched else [text_pair]
            items: list[Any] = list(zip(texts, pairs))
        else:
            items = texts
        tokenizer = self.hfcompat
        self._configure(truncation_strategy, max_length, stride, padding_strategy, pad_to_multiple_of,
                        padding_side)
        try:
            encodings = tokenizer.encode_batch(items, is_pretokenized=is_split_into_words,
                                               add_special_tokens=add_special_tokens)
        finally:
            tokenizer.no_truncation()
            tokenizer.no_padding()
        data: dict[str, list] = {"input_ids": [list(e.ids) for e in encodings]}
        if return_token_type_ids is not False:
            data["token_type_ids"] = [list(e.type_ids) for e in encodings]
        if return_attention_mask is not False:
            data["attention_mask"] = [list(e.attention_mask) for e in encodings]
        if return_special_tokens_mask:
            data["special_tokens_mask"] = [list(e.special_tokens_mask) for e in encodings]
        if return_offsets_mapping:
            data["offset_mapping"] = [[tuple(o) for o in e.offsets] for e in encodings]
        if return_length:
            data["length"] = [len(e.ids) for e in encodings]
        if not batched:
            data = {key: value[0] for key, value in data.items()}
        return BatchEncoding(data, tensor_type=return_tensors)

    def _configure(self, truncation_strategy: TruncationStrategy, max_length: int | None, stride: int,
                   padding_strategy: PaddingStrategy, pad_to_multiple_of: int | None,
                   padding_side: str | None) -> None:
        """Set hfcompat's truncation and padding for one call, as transformers' fast tokenizers do."""
        if truncation_strategy != TruncationStrategy.DO_NOT_TRUNCATE and max_length is not None:
            self.hfcompat.enable_truncation(max_length, stride=stride, strategy=truncation_strategy.value,
                                            direction=self.truncation_side)
        if padding_strategy != PaddingStrategy.DO_NOT_PAD:
            length = max_length if padding_strategy == PaddingStrategy.MAX_LENGTH else None
            self.hfcompat.enable_padding(direction=padding_side or self.padding_side,
                                         pad_id=self.pad_token_id or 0, pad_type_id=self.pad_token_type_id,
                                         pad_token=self.pad_token or "[PAD]", length=length,
                                         pad_to_multiple_of=pad_to_multiple_of)

    def num_special_tokens_to_add(self, pair: bool = False) -> int:
        """What hfcompat's post-processor adds."""
        return self.hfcompat.num_special_tokens_to_add(pair)

    # ----- saving -----------------------------------------------------------------------

    def save_vocabulary(self, save_directory: str, filename_prefix: str | None = None) -> tuple[str, ...]:
        """Write hfcompat_tokenizer.json, the data files its components name, and the loader module."""
        files = remote_code_files(self.hfcompat, prefix=filename_prefix + "-" if filename_prefix else "")
        for name, text in files.items():  # all serialized first: a failure writes nothing
            atomic_write_text(Path(save_directory) / name, text)
        return tuple(str(Path(save_directory) / name) for name in files)
