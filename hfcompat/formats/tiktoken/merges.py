"""The merge list a tiktoken rank file implies: for each token, the last join tiktoken makes.

tiktoken keeps no merge list: it joins any two adjacent parts whose concatenation has a rank,
the lowest rank first (the leftmost on ties), whatever the ranks of the two parts. A
tokenizer.json needs merges. One merge per token is enough, and exact: the two parts that
tiktoken's merging of the token's own bytes holds just before it joins them (the token's *last
join*). In any text, two adjacent parts A and B whose bytes make a token T were built inside
T's bytes alone, and every join inside them was the lowest-ranked pair inside them when it was
made (it was the lowest of the whole text); so merging T's bytes alone makes the same joins and
holds exactly A and B. Two other parts that spell T can never be adjacent, in any text: no tie
between two merges of one token (X + Y == Y + Z) can arise, and listing one merge per token,
by the token's rank, makes tokenizers' BPE (lowest merge first, leftmost on ties) join exactly
what tiktoken joins. That holds for files whose tokens rank before their halves too (a token
T = A + B with B ranked after T: tiktoken builds B, then T at once): the merge (A, B) is listed
at T's rank, before the merge that builds B. `last_join` runs that merging; `reference_merge_cuts`
applies it to every token and is the definition.

`merge_cuts` gives the same cuts from the merge trees of the shorter tokens, a few dictionary
look-ups per token instead of a merge loop. While a token's tree ranks every part after its two
children (always so in a trained file), merging its bytes joins in rank order, so a split
(left, right) of the token is its last join exactly when, in the interleaving of the two parts'
trees, nothing joins across the cut: the only parts that ever meet there are the right spine of
`left` (itself, its right part, that part's right part, ... down to a byte) and the left spine
of `right`, each alive from its own join until its parent's; such a pair that concatenates to a
token is joined when its rank comes before both parents' joins (on a tie of ranks, the join
further left goes first). `_cut_crossing_test` checks that. A token none of whose splits passes
(its merging gets stuck, a part's tree is not its own merging, or it ranks before a half) is
cut by the reference, as are files with tied ranks; a token cut before a later-ranked half is
never a part in the fast test.

tiktoken's merging reads the rank 2**32 - 1 (u32::MAX) as "no rank": a token of that rank is
never joined (only found whole), so it gets no merge.
"""

from __future__ import annotations

from array import array
from typing import Any, Callable, Mapping

from ...files import atomic_write_bytes, cache_dir

NOT_A_TOKEN = 1 << 62
NO_RANK = 2**32 - 1  # tiktoken's Rank::MAX, its "not a token" in merging

__all__ = ["cached_merge_cuts", "derive_merges", "in_rank_order", "last_join", "merge_cuts",
           "reference_merge_cuts"]


def derive_merges(ranks: Mapping[bytes, int]) -> list[tuple[bytes, bytes]]:
    """One merge per token that merging can build, in the token's rank order: its last join."""
    ordered, _ = in_rank_order(ranks)
    return [(token[:cut], token[cut:]) for token, cut in zip(ordered, merge_cuts(ordered, ranks)) if cut]


def in_rank_order(ranks: Mapping[bytes, int]) -> tuple[list[bytes], list[int]]:
    """The tokens and their ranks, by rank (a rank file is already in that order: mostly a check)."""
    tokens = list(ranks)
    values = list(ranks.values())
    if values == sorted(values):
        return tokens, values
    by_rank = sorted(ranks.items(), key=lambda item: item[1])
    return [token for token, _ in by_rank], [rank for _, rank in by_rank]


# ----- the definition ------------------------------------------------------------------------

def reference_merge_cuts(ordered: list[bytes], ranks: Mapping[bytes, int]) -> list[int]:
    """For each token, where its last join cuts it (0: a single byte, or never built by merging)."""
    if ordered and ranks[ordered[-1]] == NO_RANK:
        return _without_no_rank(reference_merge_cuts, ordered, ranks)
    get = ranks.get
    return [_reference_cut(token, ranks[token], get)[0] if len(token) > 1 else 0 for token in ordered]


def _without_no_rank(derive: Callable[[list[bytes], Mapping[bytes, int]], list[int]], ordered: list[bytes],
                     ranks: Mapping[bytes, int]) -> list[int]:
    """The cuts of ranks whose last token has tiktoken's "no rank": the others' cuts, and 0 for it."""
    rest = ordered[:-1]
    return [*derive(rest, {token: ranks[token] for token in rest}), 0]


def _reference_cut(token: bytes, rank: int, get: Any) -> tuple[int, tuple[bytes, bytes] | None]:
    """The cut of one token, and its last join when merging builds it (else None).

    A token that merging never builds is cut at its only split into two lower-ranked tokens,
    if it has exactly one (a merge no text ever applies, which keeps a tokenizer.json whose
    merges build every token convertible).
    """
    joined = last_join(token, get)
    split = joined or _only_split(token, rank, get)
    return (len(split[0]) if split else 0), joined


def _only_split(token: bytes, rank: int, get: Any) -> tuple[bytes, bytes] | None:
    """The split of `token` into two lower-ranked tokens when there is exactly one, else None."""
    found = None
    for cut in range(1, len(token)):
        left = get(token[:cut])
        if left is None or left >= rank:
            continue
        right = get(token[cut:])
        if right is None or right >= rank:
            continue
        if found is not None:
            return None
        found = (token[:cut], token[cut:])
    return found


def last_join(token: bytes, get: Any) -> tuple[bytes, bytes] | None:
    """The two parts tiktoken holds just before it joins `token` when it merges the token's bytes.

    tiktoken's merge loop: join the adjacent pair whose bytes have the lowest rank (leftmost on
    ties), any rank, until two parts remain; None when it gets stuck (the token is only ever
    found whole).
    """
    parts = [token[i:i + 1] for i in range(len(token))]
    pair_ranks = [get(left + right, NOT_A_TOKEN) for left, right in zip(parts, parts[1:])]
    while len(parts) > 2:
        best = min(pair_ranks)
        if best == NOT_A_TOKEN:
            return None
        i = pair_ranks.index(best)
        joined = parts[i] + parts[i + 1]
        parts[i:i + 2] = [joined]
        del pair_ranks[i]
        if i:
            pair_ranks[i - 1] = get(parts[i - 1] + joined, NOT_A_TOKEN)
        if i < len(pair_ranks):
            pair_ranks[i] = get(joined + parts[i + 1], NOT_A_TOKEN)
    return (parts[0], parts[1]) if len(parts) == 2 else None


# ----- the fast derivation -------------------------------------------------------------------

def merge_cuts(ordered: list[bytes], ranks: Mapping[bytes, int]) -> list[int]:
    """`reference_merge_cuts` (`ordered`: the tokens by rank), from the merge trees of shorter tokens.

    Tokens are taken by rank; the splits of each into two lower-ranked tokens are tried from the
    longest left part down, and the first whose cut nothing crosses is its last join.
    """
    if ordered and ranks[ordered[-1]] == NO_RANK:
        return _without_no_rank(merge_cuts, ordered, ranks)
    count = len(ordered)
    values = list(map(ranks.__getitem__, ordered))
    if len(set(values)) < count:  # tied ranks (a vocab with shared ids): the reference handles ties
        return reference_merge_cuts(ordered, ranks)
    # Only the order of the ranks matters: positions in rank order stand for them.
    contiguous = count > 0 and values[0] == 0 and values[-1] == count - 1
    get = (ranks if contiguous else dict(zip(ordered, range(count)))).get
    left, right = [-1] * count, [-1] * count  # a token's two parts; -1 for a byte
    own_tree = bytearray([1]) * count  # 1: left/right hold the token's last join, and so on down
    cuts = [0] * count
    crosses = _cut_crossing_test(ordered, get, left, right)
    for rank, token in enumerate(ordered):
        size = len(token)
        if size < 2:
            continue
        prefix = [count] * size  # prefix[c]: position of token[:c] (count: none), for the cuts tried
        for cut in range(size - 1, 0, -1):
            first = prefix[cut] = get(token[:cut], count)
            if first >= rank:
                continue
            second = get(token[cut:], count)
            if second < rank and own_tree[first] and own_tree[second] \
                    and not crosses(first, second, rank, prefix, cut):
                cuts[rank], left[rank], right[rank] = cut, first, second
                break
        else:
            cuts[rank], joined = _reference_cut(token, rank, get)
            parts = (get(joined[0]), get(joined[1])) if joined else (None, None)
            # A part ranked after the token: its merging is not in rank order, so not a fast part.
            if None in parts or max(parts) > rank or not (own_tree[parts[0]] and own_tree[parts[1]]):
                own_tree[rank] = 0
            else:
                left[rank], right[rank] = parts
    return cuts


def _cut_crossing_test(tokens: list[bytes], get: Any, left: list[int],
                       right: list[int]) -> Callable[[int, int, int, list[int], int], bool]:
    """`crosses(x, y, rank, prefix, cut)`: whether merging the token `rank` = x + y joins across the cut.

    Times are ranks, tripled so that a tie orders joins from left to right: 3r inside x, 3r + 1
    across the cut, 3r + 2 inside y (-1: a byte, there from the start). The pairs that meet at
    the cut are visited from the last to the first: each step replaces the member born last by
    its child at the cut. `prefix[c]` holds the position of `token[:c]` for every c past the cut.
    """
    absent = len(tokens)

    def crosses(x: int, y: int, rank: int, prefix: list[int], cut: int) -> bool:
        """Whether some pair meeting at the cut joins before both of its members are absorbed."""
        whole = x_end = y_end = 3 * rank
        while True:
            # The member born last (positions order births; a byte, -1, is there from the start).
            x_born = x if right[x] >= 0 else -1
            y_born = y if left[y] >= 0 else -1
            if x_born > y_born:
                x_end, x = 3 * x, right[x]
            elif y_born >= 0:
                y_end, y = 3 * y + 2, left[y]
            else:
                return False
            if x_end == whole:  # x is the whole left part: x + y is a prefix already looked up
                joined = prefix[cut + len(tokens[y])]
            else:
                joined = get(tokens[x] + tokens[y], absent)
            if 3 * joined + 1 < (x_end if x_end < y_end else y_end):
                return True

    return crosses


# ----- the cache -----------------------------------------------------------------------------

def cached_merge_cuts(ordered: list[bytes], ranks: Mapping[bytes, int], digest: str) -> list[int]:
    """merge_cuts, remembered in the cache directory under the rank file's sha256.

    The cache holds each token's cut (two bytes per token), so a later load of the same file
    skips the derivation. A cache that cannot be read or written is ignored.
    """
    cache = cache_dir() / f"tiktoken-merges-v2-{digest}.bin"  # v2: later-ranked halves
    try:
        cuts = array("H")
        cuts.frombytes(cache.read_bytes())
        if len(cuts) == len(ordered):
            return cuts.tolist()
    except (OSError, ValueError):
        pass
    cuts = merge_cuts(ordered, ranks)
    try:
        atomic_write_bytes(cache, array("H", cuts).tobytes())
    except (OSError, OverflowError):
        pass
    return cuts
