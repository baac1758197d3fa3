"""Chinese word segmentation: dictionary matching, the word graph, bigram paths, the HMM, SIGHAN scores."""

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from .bigram import BigramModel
    from .dictionary import Dictionary
    from .hmm import HMM
    from .pre_tokenizer import (ChineseWordSegmentation, SideFiles, pre_tokenizer_from_extension_dict,
                                pre_tokenizer_to_extension_dict)
    from .scoring import Score, score
    from .segmenter import METHODS, Segmenter

# Each name's module, imported on first use: reading a tokenizer.json loads no segmenter unless the
# file holds one.
__getattr__ = lazy_names(__name__, {
    "BigramModel": "bigram", "Dictionary": "dictionary", "HMM": "hmm", "ChineseWordSegmentation": "pre_tokenizer",
    "SideFiles": "pre_tokenizer", "pre_tokenizer_from_extension_dict": "pre_tokenizer",
    "pre_tokenizer_to_extension_dict": "pre_tokenizer", "Score": "scoring", "score": "scoring",
    "METHODS": "segmenter", "Segmenter": "segmenter"})

__all__ = ["BigramModel", "ChineseWordSegmentation", "Dictionary", "HMM", "METHODS", "Score", "Segmenter", "SideFiles",
           "pre_tokenizer_from_extension_dict", "pre_tokenizer_to_extension_dict", "score"]
