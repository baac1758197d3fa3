"""The merges derived from tiktoken ranks: each token's last join, as tiktoken's own merging makes it.

The oracle is tiktoken's pure-Python merging (`tiktoken._educational.bpe_encode`) run on a
token's bytes with every other rank, later ones included (tiktoken joins by the rank of the joined
bytes, whatever the parts' ranks). `merge_cuts` (the fast derivation) must also give the cuts of
`reference_merge_cuts` on any ranks at all, stuck merging included, and on the real files.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiktoken._educational import bpe_encode

from hfcompat.formats.tiktoken.ranks import read_ranks
from hfcompat.formats.tiktoken.merges import in_rank_order, merge_cuts, reference_merge_cuts

from tiktoken_files import rank_file

ALPHABET = b"abc"  # few letters: the same piece often recurs in a token (one rank at two places)


@st.composite
def trained_like_ranks(draw: st.DrawFn) -> dict[bytes, int]:
    """Ranks that grow as BPE training does: the bytes first, then joins of earlier tokens (or any string)."""
    tokens = draw(st.permutations([bytes([byte]) for byte in ALPHABET]))
    for _ in range(draw(st.integers(0, 40))):
        if draw(st.booleans()):
            token = draw(st.sampled_from(tokens)) + draw(st.sampled_from(tokens))
        else:
            letters = draw(st.lists(st.sampled_from(ALPHABET), min_size=2, max_size=6))
            token = bytes(letters)
        if token not in tokens and len(token) <= 12:
            tokens.append(token)
    return _ranked(draw, tokens)


@st.composite
def shuffled_ranks(draw: st.DrawFn) -> dict[bytes, int]:
    """Every byte and other strings in any order: tokens often rank before one of their halves."""
    text = st.text(alphabet="abc", min_size=2, max_size=7).map(str.encode)
    tokens = [bytes([byte]) for byte in ALPHABET] + draw(st.lists(text, unique=True, max_size=40))
    return _ranked(draw, draw(st.permutations(tokens)))


@st.composite
def any_ranks(draw: st.DrawFn) -> dict[bytes, int]:
    """Any strings over the alphabet in any order: bytes ranked late or missing, stuck merging, tied ranks."""
    text = st.text(alphabet="abc", min_size=1, max_size=7).map(str.encode)
    return _ranked(draw, draw(st.lists(text, unique=True, max_size=40)), steps=(1, 3, 0.5))


def _ranked(draw: st.DrawFn, tokens: list[bytes], steps: tuple[float, ...] = (1, 3)) -> dict[bytes, int]:
    """Ranks in list order: 0, 1, 2, ... or with gaps (only their order may matter); step 0.5 ties some."""
    step = draw(st.sampled_from(steps))
    return {token: int(step * index) for index, token in enumerate(tokens)}


def expected_cut(token: bytes, ranks: dict[bytes, int]) -> int:
    """tiktoken's last join of `token` as a cut; a token it cannot build is cut at its only split
    into lower-ranked tokens, if any (a merge no text applies)."""
    others = {part: rank for part, rank in ranks.items() if part != token}
    parts = bpe_encode(others, token, visualise=None)  # without the token, merging stops at its two parts
    if len(parts) == 2:
        return len(next(part for part, rank in others.items() if rank == parts[0]))
    below = {part for part, rank in others.items() if rank < ranks[token]}
    splits = [cut for cut in range(1, len(token)) if token[:cut] in below and token[cut:] in below]
    return splits[0] if len(splits) == 1 else 0


@settings(max_examples=300, deadline=None)
@given(st.one_of(trained_like_ranks(), shuffled_ranks()))
def test_cuts_are_tiktokens_last_joins(ranks: dict[bytes, int]) -> None:
    """Each token is cut where tiktoken's merging of its bytes joins it last, later-ranked halves too."""
    ordered, _ = in_rank_order(ranks)
    cuts = merge_cuts(ordered, ranks)
    assert cuts == [expected_cut(token, ranks) if len(token) > 1 else 0 for token in ordered]


@settings(max_examples=300, deadline=None)
@given(st.one_of(any_ranks(), trained_like_ranks(), shuffled_ranks()))
def test_fast_derivation_is_the_reference(ranks: dict[bytes, int]) -> None:
    """On any ranks the derivation from merge trees gives the reference's cuts."""
    ordered, _ = in_rank_order(ranks)
    assert merge_cuts(ordered, ranks) == reference_merge_cuts(ordered, ranks)


@pytest.mark.parametrize("name", ["cl100k_base", "r50k_base", "whisper"])
def test_fast_derivation_on_real_files(name: str) -> None:
    """The real rank files: the same cuts as the reference, token for token."""
    ranks = read_ranks(rank_file(name))
    ordered, _ = in_rank_order(ranks)
    assert merge_cuts(ordered, ranks) == reference_merge_cuts(ordered, ranks)


def test_a_token_of_tiktokens_no_rank_gets_no_merge() -> None:
    """tiktoken's merging reads the rank 2**32 - 1 as "no rank": that token is never joined."""
    ranks = {bytes([byte]): byte for byte in range(256)} | {b"ab": 256, b"abc": 2**32 - 1}
    ordered, _ = in_rank_order(ranks)
    assert merge_cuts(ordered, ranks)[-2:] == reference_merge_cuts(ordered, ranks)[-2:] == [1, 0]
