"""The word graph (DAG) of a text and its best paths: most probable (jieba's rule) and fewest words."""

from __future__ import annotations

from .dictionary import Dictionary

_ABSENT = object()  # what a lookup of a fragment outside the prefix table returns


def build_dag(text: str, dictionary: Dictionary) -> list[list[int]]:
    """For each start k, the inclusive end indices of the words starting at k (just k if none).

    The prefix table stops the scan as soon as the fragment can no longer grow into a word.
    """
    freq = dictionary.freq
    n = len(text)
    dag: list[list[int]] = []
    for k in range(n):
        ends = []
        i = k
        fragment = text[k]
        while i < n and fragment in freq:
            if freq[fragment]:
                ends.append(i)
            i += 1
            fragment = text[k:i + 1]
        dag.append(ends or [k])
    return dag


def most_probable_route(text: str, dictionary: Dictionary) -> list[int]:
    """route[k] = inclusive end of the word starting at k on the most probable path from k.

    Scores are summed unigram log-probabilities, computed right to left; a tie goes
    to the longer word, and the additions happen in jieba's order so that floating
    point ties fall exactly as in jieba.
    """
    weight_of = dictionary.log_probs().get
    unknown = dictionary.log_unknown()
    n = len(text)
    score = [0.0] * (n + 1)
    route = [0] * n
    for k in range(n - 1, -1, -1):
        best_end = -1
        best = 0.0
        for i in range(k, n):
            weight = weight_of(text[k:i + 1], _ABSENT)
            if weight is _ABSENT:  # no word starts with this fragment
                break
            if weight is not None:
                candidate = weight + score[i + 1]  # type: ignore[operator]
                if best_end < 0 or candidate >= best:
                    best, best_end = candidate, i
        if best_end < 0:
            best, best_end = unknown + score[k + 1], k
        score[k] = best
        route[k] = best_end
    return route


def shortest_route(text: str, dictionary: Dictionary) -> list[int]:
    """route[k] for the path with the fewest words; ties go to the more probable, then the longer word."""
    dag = build_dag(text, dictionary)
    n = len(text)
    cost: list[tuple[int, float]] = [(0, 0.0)] * (n + 1)
    route = [0] * n
    for k in range(n - 1, -1, -1):
        best: tuple[int, float, int] | None = None
        for end in dag[k]:
            words, logp = cost[end + 1]
            candidate = (-(words + 1), dictionary.log_prob(text[k:end + 1]) + logp, end)
            if best is None or candidate > best:
                best = candidate
        assert best is not None
        cost[k] = (-best[0], best[1])
        route[k] = best[2]
    return route


def follow(text: str, route: list[int]) -> list[str]:
    """The words along a route, from the first character on."""
    words = []
    k = 0
    while k < len(text):
        end = route[k] + 1
        words.append(text[k:end])
        k = end
    return words


def most_probable_cut(text: str, dictionary: Dictionary) -> list[str]:
    """The words of the most probable path through `text`, no post-processing."""
    return follow(text, most_probable_route(text, dictionary))
