"""What hfcompat builds on its formats: `train` (a tokenizer of a named kind), `verify` (parity
with the official libraries), `evaluate` (+ its report: how tokenizers compare on a corpus),
`explain` (every stage of one encoding), `lint` (what is wrong or risky in a tokenizer) and `viz`
(tokens drawn over the text). Importing this
package registers `explain` as `Tokenizer.explain`."""

from ..tokenizer import EXTENSIONS
from .evaluate import evaluate
from .explain import explain
from .lint import Finding, lint
from .train import count_words, train
from .verify import VerifyReport, verify

__all__ = ["Finding", "VerifyReport", "count_words", "evaluate", "explain", "lint", "train", "verify"]

EXTENSIONS["explain"] = explain
