"""The Unigram lattice: every candidate piece of a sentence as a node, for Viterbi, n-best and EM.

Positions and lengths are in characters (HF counts UTF-8 bytes; only the unit differs).
The model's own encoder uses a faster array Viterbi with the same tie rule; this
structure serves n-best lists and training.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from dataclasses import dataclass, field
from itertools import count
from typing import Iterable, Optional

MAX_AGENDA = 100_000
MIN_AGENDA = 512
LOG_SUM_EXP_CUTOFF = 50.0
TIMEOUT_CHECK_STEPS = 0xFFF  # the n-best search looks at the clock once per 4096 steps


@dataclass(eq=False)
class Node:
    """One candidate piece: vocabulary `id` spanning `length` chars from `pos`."""

    id: int
    node_id: int
    pos: int
    length: int
    score: float
    prev: Optional["Node"] = None
    backtrace_score: float = 0.0


@dataclass(eq=False)
class _Hypothesis:
    """A partial path from some node to the end: `gx` its exact score, `fx` gx plus the best prefix."""

    node: Node
    next: Optional["_Hypothesis"]
    fx: float
    gx: float


def log_sum_exp(x: float, y: float, init: bool) -> float:
    """log(exp(x) + exp(y)), or y alone when starting a sum; negligible terms are dropped."""
    if init:
        return y
    low, high = (y, x) if x > y else (x, y)
    if high > low + LOG_SUM_EXP_CUTOFF:
        return high
    return high + math.log(math.exp(low - high) + 1.0)


@dataclass(eq=False)
class Lattice:
    """Nodes indexed by where they begin and end; `bos` ends at 0, `eos` begins at len(sentence)."""

    sentence: str
    bos_id: int
    eos_id: int
    nodes: list[Node] = field(init=False)
    begin_nodes: list[list[Node]] = field(init=False)
    end_nodes: list[list[Node]] = field(init=False)

    def __post_init__(self) -> None:
        size = len(self.sentence)
        bos = Node(self.bos_id, 0, 0, 0, 0.0)
        eos = Node(self.eos_id, 1, size, 0, 0.0)
        self.nodes = [bos, eos]
        self.begin_nodes = [[] for _ in range(size + 1)]
        self.end_nodes = [[] for _ in range(size + 1)]
        self.begin_nodes[size].append(eos)
        self.end_nodes[0].append(bos)

    def __len__(self) -> int:
        return len(self.sentence)

    @property
    def bos(self) -> Node:
        """The start-of-sentence node."""
        return self.nodes[0]

    @property
    def eos(self) -> Node:
        """The end-of-sentence node."""
        return self.nodes[1]

    def insert(self, pos: int, length: int, score: float, token_id: int) -> None:
        """Add a candidate piece."""
        node = Node(token_id, len(self.nodes), pos, length, score)
        self.begin_nodes[pos].append(node)
        self.end_nodes[pos + length].append(node)
        self.nodes.append(node)

    def piece(self, node: Node) -> str:
        """The text a node covers."""
        return self.sentence[node.pos : node.pos + node.length]

    def viterbi(self) -> list[Node]:
        """The best path (bos/eos excluded); [] if some position cannot be reached.

        For each node, the best predecessor is the first one (in insertion order) with
        the strictly highest score.
        """
        for pos in range(len(self.sentence) + 1):
            if not self.begin_nodes[pos] or not self.end_nodes[pos]:
                return []
            for right in self.begin_nodes[pos]:
                best = None
                for left in self.end_nodes[pos]:
                    score = left.backtrace_score + right.score
                    if best is None or score > right.backtrace_score:
                        best, right.backtrace_score = left, score
                right.prev = best
        path = []
        node = self.eos.prev
        while node is not None and node.prev is not None:
            path.append(node)
            node = node.prev
        path.reverse()
        return path

    def tokens(self) -> list[str]:
        """The pieces of the best path."""
        return [self.piece(node) for node in self.viterbi()]

    def nbest(self, n: int, timeout_ms: float = 0.0) -> list[list[Node]]:
        """Up to `n` best paths, best first (A* from the end, guided by the Viterbi scores).

        With `timeout_ms` > 0, a search still running that long after it began (checked every
        4096 steps, as sentencepiece checks) gives the best path alone, as sentencepiece does.
        """
        if n <= 0:
            return []
        if n == 1:
            return [self.viterbi()]
        self.viterbi()
        order = count(0, -1)  # equal estimates pop newest first: ties go deep, as a heap does, not wide
        agenda: list[tuple[float, int, _Hypothesis]] = []
        eos = self.eos
        heapq.heappush(agenda, (-eos.score, next(order), _Hypothesis(eos, None, eos.score, eos.score)))
        paths: list[list[Node]] = []
        started, steps = time.monotonic(), 0
        while agenda:
            steps += 1
            if timeout_ms > 0 and not steps & TIMEOUT_CHECK_STEPS \
                    and (time.monotonic() - started) * 1000.0 >= timeout_ms:
                return [self.viterbi()]
            top = heapq.heappop(agenda)[2]
            if top.node is self.bos:
                paths.append(self._unwind(top))
                if len(paths) == n:
                    break
                continue
            for left in self.end_nodes[top.node.pos]:
                fx = left.backtrace_score + top.gx
                hypothesis = _Hypothesis(left, top, fx, left.score + top.gx)
                heapq.heappush(agenda, (-fx, next(order), hypothesis))
            if len(agenda) > MAX_AGENDA:
                agenda = heapq.nsmallest(min(MIN_AGENDA, n * 10), agenda)
                heapq.heapify(agenda)
        return paths

    @staticmethod
    def _unwind(hypothesis: _Hypothesis) -> list[Node]:
        """The nodes between bos and eos of a finished hypothesis."""
        nodes = []
        step = hypothesis.next
        while step is not None and step.next is not None:
            nodes.append(step.node)
            step = step.next
        return nodes

    def nbest_tokens(self, n: int) -> list[list[str]]:
        """The pieces of each of the `n` best paths."""
        return [[self.piece(node) for node in path] for path in self.nbest(n)]

    def sample(self, theta: float, rng: random.Random) -> list[Node]:
        """One path drawn with probability proportional to exp(theta * path score).

        Forward filtering (log-sum of every path reaching each node), then backward sampling
        from the end: each step picks a left neighbour in proportion to its forward weight.
        """
        forward = [0.0] * len(self.nodes)
        for pos in range(len(self.sentence) + 1):
            for right in self.begin_nodes[pos]:
                total, first = 0.0, True
                for left in self.end_nodes[pos]:
                    total = log_sum_exp(total, forward[left.node_id], first)
                    first = False
                forward[right.node_id] = total + theta * right.score
        path: list[Node] = []
        node = self.eos
        while True:
            candidates = self.end_nodes[node.pos]
            top = max(forward[left.node_id] for left in candidates)
            weights = [math.exp(forward[left.node_id] - top) for left in candidates]
            node = rng.choices(candidates, weights)[0]
            if node is self.bos:
                break
            path.append(node)
        path.reverse()
        return path

    def populate_marginal(self, freq: float, expected: list[float]) -> float:
        """Add `freq` times each node's posterior probability to `expected[id]`; return freq * log Z.

        As in HF, a sum restarts at every node whose id equals the first node's id.
        """
        size = len(self.sentence)
        alpha = [0.0] * len(self.nodes)
        beta = [0.0] * len(self.nodes)
        for pos in range(size + 1):
            first_id = self.end_nodes[pos][0].id if self.end_nodes[pos] else None
            for right in self.begin_nodes[pos]:
                for left in self.end_nodes[pos]:
                    alpha[right.node_id] = log_sum_exp(
                        alpha[right.node_id], left.score + alpha[left.node_id], left.id == first_id
                    )
        for pos in range(size, -1, -1):
            first_id = self.begin_nodes[pos][0].id if self.begin_nodes[pos] else None
            for left in self.end_nodes[pos]:
                for right in self.begin_nodes[pos]:
                    beta[left.node_id] = log_sum_exp(
                        beta[left.node_id], right.score + beta[right.node_id], right.id == first_id
                    )
        z = alpha[self.eos.node_id]
        for pos in range(size):
            for node in self.begin_nodes[pos]:
                total = alpha[node.node_id] + node.score + beta[node.node_id] - z
                expected[node.id] += freq * math.exp(total)
        return freq * z


# Fast paths for training: the same forward-backward and Viterbi over `starts`, where
# starts[i] lists the (end, id) of every piece beginning at char i, without Node objects.

RESCALE_BELOW = 1e-100

Starts = list[list[tuple[int, int]]]


def group_by_start(length: int, spans: Iterable[tuple[int, int, int]]) -> Starts:
    """(start, end, id) spans as the per-start lists the fast paths read."""
    starts: Starts = [[] for _ in range(length)]
    for start, end, piece in spans:
        starts[start].append((end, piece))
    return starts


def span_marginals(starts: Starts, probs: list[float], freq: float, expected: list[float], window: int = 16) -> float:
    """Add `freq` times each piece's posterior to `expected[id]`; return freq * log Z (-inf if no path).

    Works with probabilities, not logs (one multiply per span instead of a log-sum-exp),
    and divides the forward (backward) mass out of a position whose mass falls below
    RESCALE_BELOW, keeping the log of what was divided: sentences of any length neither
    underflow nor give NaN. No piece may be longer than `window` chars.
    """
    length = len(starts)
    alpha = [0.0] * (length + 1)
    alpha[0] = 1.0
    log_alpha_scale = [0.0] * (length + 1)  # log of what was divided out of alpha[t]
    scale = 0.0
    for start, group in enumerate(starts):
        mass = alpha[start]
        if 0.0 < mass < RESCALE_BELOW:
            for position in range(start, min(length, start + window) + 1):
                alpha[position] /= mass
            scale += math.log(mass)
            mass = 1.0
        log_alpha_scale[start] = scale
        for end, piece in group:
            alpha[end] += mass * probs[piece]
    if alpha[length] <= 0.0:
        return -math.inf
    log_z = math.log(alpha[length]) + scale
    beta = [0.0] * (length + 1)
    beta[length] = 1.0
    scale = 0.0
    log_factor, coefficient = math.nan, 0.0  # freq / Z in the scales of alpha and beta
    for start in range(length - 1, -1, -1):
        if log_alpha_scale[start] + scale != log_factor:
            log_factor = log_alpha_scale[start] + scale
            coefficient = freq * math.exp(log_factor - log_z)
        factor = coefficient * alpha[start]
        mass = 0.0
        for end, piece in starts[start]:
            flow = probs[piece] * beta[end]
            mass += flow
            expected[piece] += factor * flow
        if 0.0 < mass < RESCALE_BELOW:
            for position in range(start + 1, min(length, start + window) + 1):
                beta[position] /= mass
            scale += math.log(mass)
            mass = 1.0
        beta[start] = mass
    return freq * log_z


def span_viterbi(starts: Starts, scores: list[float]) -> list[tuple[int, int, int]]:
    """The best path as (start, end, id) under log-probability `scores`; [] if none.

    Ties keep the first piece met, as Lattice.viterbi keeps the first best predecessor.
    """
    length = len(starts)
    best = [-math.inf] * (length + 1)
    best[0] = 0.0
    origin = [-1] * (length + 1)
    last_id = [0] * (length + 1)
    for start, group in enumerate(starts):
        base = best[start]
        for end, piece in group:
            candidate = base + scores[piece]
            if candidate > best[end]:
                best[end], origin[end], last_id[end] = candidate, start, piece
    path = []
    position = length
    while position > 0:
        start = origin[position]
        if start < 0:
            return []
        path.append((start, position, last_id[position]))
        position = start
    path.reverse()
    return path
