"""Chinese word segmentation: dictionary matching, the word graph, bigram paths, the HMM, SIGHAN scores."""

from .bigram import BigramModel
from .dictionary import Dictionary
from .hmm import HMM
from .pre_tokenizer import ChineseWordSegmentation
from .scoring import Score, score
from .segmenter import METHODS, Segmenter

__all__ = ["BigramModel", "ChineseWordSegmentation", "Dictionary", "HMM", "METHODS", "Score", "Segmenter", "score"]
