"""Chinese word segmentation: SIGHAN 2005 scores per method and throughput against jieba.

Run: .venv/bin/python benchmarks/segment.py [--repeat N]
Scores: the PKU and MSR test sets of ../shared/corpora/icwb2, each method using the
training word list of the same corpus as its dictionary (jieba: its own dictionary).
Speed: "dag" with and without the HMM on jieba's dictionary against jieba.lcut on the
same lines, single-threaded, best of N runs, in characters per second.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
ICWB2 = REPO.parent / "shared" / "corpora" / "icwb2"
sys.path.insert(0, str(REPO))

from hfcompat.segmentation import HMM, BigramModel, Dictionary, Segmenter, score  # noqa: E402

METHODS = [("fmm", False), ("bmm", False), ("bidirectional", False), ("dag", False), ("dag", True)]


def lines_of(name: str) -> list[str]:
    """The lines of one icwb2 file, line ends removed."""
    return (ICWB2 / name).read_text(encoding="utf-8").splitlines()


def joined(cut: Callable[[str], list[str]], lines: list[str]) -> list[str]:
    """Each line cut and written the bakeoff's way: words separated by spaces."""
    return [" ".join(w for w in cut(line) if not w.isspace()) for line in lines]


def score_rows() -> list[tuple[str, str, object]]:
    """(corpus, method, Score) for every method and for jieba."""
    import jieba

    jieba.setLogLevel(60)
    rows = []
    for corpus in ("pku", "msr"):
        words = [w.strip() for w in lines_of(f"{corpus}_training_words.utf8") if w.strip()]
        raw, gold = lines_of(f"{corpus}_test.utf8"), lines_of(f"{corpus}_test_gold.utf8")
        dictionary = Dictionary.from_words(words)
        for method, hmm in METHODS:
            segmenter = Segmenter(dictionary, method=method, hmm=hmm)
            rows.append((corpus, method + ("+hmm" if hmm else ""), score(gold, joined(segmenter.cut, raw), words)))
        rows.append((corpus, "jieba (own dict, HMM)", score(gold, joined(jieba.lcut, raw), words)))
    return rows


def trained_rows() -> list[tuple[str, str, object]]:
    """(corpus, method, Score) for the trained models: fitted on the even gold lines, scored on the odd.

    ../shared holds no segmented training text, so half of the gold test set stands in for it.
    """
    rows = []
    for corpus in ("pku", "msr"):
        words = [w.strip() for w in lines_of(f"{corpus}_training_words.utf8") if w.strip()]
        raw, gold = lines_of(f"{corpus}_test.utf8"), lines_of(f"{corpus}_test_gold.utf8")
        train, test_gold, test_raw = gold[0::2], gold[1::2], raw[1::2]
        dictionary = Dictionary.from_words(words)
        for name, segmenter in [
            ("dag", Segmenter(dictionary)),
            ("dag+trained hmm", Segmenter(dictionary, hmm=HMM.train(train))),
            ("bigram", Segmenter(dictionary, method="bigram", bigram=BigramModel.train(train))),
        ]:
            rows.append((corpus, name, score(test_gold, joined(segmenter.cut, test_raw), words)))
    return rows


def best_time(function: Callable[[], object], repeat: int) -> float:
    """The fastest of `repeat` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def speed_rows(repeat: int) -> list[tuple[str, float, float]]:
    """(setting, our chars/s, jieba chars/s) on the PKU and MSR test text."""
    import jieba

    lines = lines_of("pku_test.utf8") + lines_of("msr_test.utf8")
    chars = sum(map(len, lines))
    jieba.initialize()
    dictionary = Dictionary.from_jieba()
    rows = []
    for hmm in (False, True):
        segmenter = Segmenter(dictionary, method="dag", hmm=hmm)
        ours = best_time(lambda: [segmenter.cut(line) for line in lines], repeat)
        theirs = best_time(lambda: [jieba.lcut(line, HMM=hmm) for line in lines], repeat)
        rows.append(("dag+hmm" if hmm else "dag", chars / ours, chars / theirs))
    return rows


def print_scores(rows: list[tuple[str, str, object]]) -> None:
    """One Markdown table of scores."""
    print("| corpus | method | P | R | F1 | OOV rate | OOV recall | IV recall |")
    print("|---|---|---|---|---|---|---|---|")
    for corpus, method, s in rows:
        print(f"| {corpus} | {method} | {s.precision:.3f} | {s.recall:.3f} | {s.f1:.3f} | "  # type: ignore[attr-defined]
              f"{s.oov_rate:.3f} | {s.oov_recall:.3f} | {s.iv_recall:.3f} |")  # type: ignore[attr-defined]
    print()


def main() -> None:
    """Print the score tables and the speed table as Markdown."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print_scores(score_rows())
    print("Trained models (even gold test lines to train, odd lines to score):\n")
    print_scores(trained_rows())
    print("| setting | hfcompat chars/s | jieba chars/s | ratio |")
    print("|---|---|---|---|")
    for setting, ours, theirs in speed_rows(args.repeat):
        print(f"| {setting} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.2f}x |")


if __name__ == "__main__":
    main()
