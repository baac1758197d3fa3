"""hfcompat.trainers.unigram: its parts against slow exact references, its result's shape.

The fast forward-backward and Viterbi over spans are checked against the Lattice (log space,
Node objects) and against enumeration of every segmentation; the seed's substrings against a
brute-force suffix-tree definition; the trained vocabulary's guarantees directly.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hfcompat.models.lattice import Starts, group_by_start, span_marginals, span_viterbi
from hfcompat.models.unigram import Unigram
from hfcompat.trainers.unigram import (
    UNK_CHAR,
    PieceRules,
    SubPieces,
    UnigramTrainer,
    VocabularyTooSmall,
    digamma,
    frequent_substrings,
    halves_of_chars,
    most_common_first,
    shared_counts,
    suffix_nodes,
)

VOCAB = [("<unk>", -20.0), ("a", -1.5), ("b", -2.0), ("ab", -2.2), ("ba", -3.1), ("aba", -2.9), ("c", -4.0),
         ("bab", -3.3)]


def model_spans(model: Unigram, text: str) -> Starts:
    """A model's candidate pieces, grouped by start."""
    return group_by_start(len(text), (span[:3] for span in model.spans(text)))


def scores_of(model: Unigram) -> list[float]:
    """Per id the score a span of that id carries (unk's own score for unk spans)."""
    return [model.unk_score if index == model.unk_id else score for index, (_, score) in enumerate(model.vocab)]


@given(st.text(alphabet="abcd", min_size=1, max_size=14))
def test_span_marginals_match_the_lattice(text: str) -> None:
    """Posteriors and log Z equal the Lattice's log-space forward-backward."""
    model = Unigram(VOCAB, unk_id=0)
    lattice = model.lattice(text)
    reference = [0.0] * len(VOCAB)
    log_z = lattice.populate_marginal(3.0, reference)
    ours = [0.0] * len(VOCAB)
    probs = [math.exp(score) for score in scores_of(model)]
    assert span_marginals(model_spans(model, text), probs, 3.0, ours) == pytest.approx(log_z, rel=1e-12)
    assert ours == pytest.approx(reference, rel=1e-9, abs=1e-9)


def test_span_marginals_against_enumeration() -> None:
    """Expected counts are the probability-weighted counts over every segmentation."""
    model = Unigram(VOCAB[1:])
    text = "abababa"
    spans = model_spans(model, text)
    probs = [math.exp(score) for _, score in model.vocab]
    weights: list[float] = [0.0] * len(probs)
    total = 0.0
    for cuts in itertools.product([False, True], repeat=len(text) - 1):
        bounds = [0] + [i + 1 for i, cut in enumerate(cuts) if cut] + [len(text)]
        pieces = [model.token_to_id(text[a:b]) for a, b in zip(bounds, bounds[1:])]
        if None in pieces:
            continue
        p = math.prod(probs[piece] for piece in pieces)
        total += p
        for piece in pieces:
            weights[piece] += p
    expected = [0.0] * len(probs)
    assert span_marginals(spans, probs, 1.0, expected) == pytest.approx(math.log(total))
    assert expected == pytest.approx([w / total for w in weights])


def test_span_marginals_on_long_sentences_stay_finite() -> None:
    """20,000 chars of small probabilities: no underflow, no NaN, the same log Z as the log-space lattice."""
    rng = random.Random(5)
    text = "".join(rng.choice("abc") for _ in range(20_000))
    model = Unigram([(piece, score - 30.0) for piece, score in VOCAB], unk_id=0)
    probs = [math.exp(score) for score in scores_of(model)]
    expected = [0.0] * len(VOCAB)
    log_z = span_marginals(model_spans(model, text), probs, 1.0, expected)
    assert math.isfinite(log_z) and all(math.isfinite(value) for value in expected)
    assert log_z == pytest.approx(model.lattice(text).populate_marginal(1.0, [0.0] * len(VOCAB)), rel=1e-9)
    # every char is covered by exactly one piece of each segmentation
    lengths = [len(piece) if index else 1 for index, (piece, _) in enumerate(VOCAB)]
    assert sum(count * length for count, length in zip(expected, lengths)) == pytest.approx(len(text), rel=1e-9)


@given(st.text(alphabet="abcd", min_size=0, max_size=14))
def test_span_viterbi_matches_the_model(text: str) -> None:
    """The best path has the score of the Lattice's Viterbi path."""
    model = Unigram(VOCAB, unk_id=0)
    scores = scores_of(model)
    path = span_viterbi(model_spans(model, text), scores)
    lattice = model.lattice(text)
    assert sum(scores[i] for _, _, i in path) == pytest.approx(sum(node.score for node in lattice.viterbi()))


def test_digamma() -> None:
    """Known values: psi(1) = -gamma, psi(0.5) = -gamma - 2 ln 2, psi(x+1) = psi(x) + 1/x."""
    euler = 0.5772156649015329
    assert digamma(1.0) == pytest.approx(-euler, abs=1e-9)
    assert digamma(0.5) == pytest.approx(-euler - 2 * math.log(2), abs=1e-9)
    assert digamma(11.5) == pytest.approx(digamma(10.5) + 1 / 10.5, abs=1e-9)


def first_byte(char: str) -> int:
    """A char's first UTF-8 byte (the unk stand-in's is that of sentencepiece's U+2047)."""
    return ("\u2047" if char == UNK_CHAR else char).encode("utf-8")[0]


def brute_force_nodes(word_counts: dict[str, int], max_length: int,
                      sentence_ends: dict[str, int] | None = None) -> dict[str, int]:
    """Substrings (length >= 2) followed by chars or ends of two different first UTF-8 bytes: a
    word's end is the next word's ▁, a sentence's end (sentence_ends) the byte 0."""
    ends = sentence_ends or {}
    occurrences: dict[str, int] = {}
    followers: dict[str, set[int]] = {}
    for word, count in word_counts.items():
        for start in range(len(word)):
            for end in range(start + 2, min(len(word), start + max_length) + 1):
                piece = word[start:end]
                occurrences[piece] = occurrences.get(piece, 0) + count
                if end < len(word):
                    next_bytes = {first_byte(word[end])}
                else:
                    last = ends.get(word, 0)
                    next_bytes = {byte for byte, times in ((first_byte("▁"), count - last), (0, last)) if times}
                followers.setdefault(piece, set()).update(next_bytes)
    return {piece: count for piece, count in occurrences.items() if len(followers[piece]) >= 2}


SEED_CHARS = "ab▁éè—" + UNK_CHAR  # é and è, ▁ — and the unk stand-in share their first UTF-8 byte


@st.composite
def words_and_ends(draw: st.DrawFn) -> tuple[dict[str, int], dict[str, int]]:
    """Word counts (some beyond 64 bits) and how many of each word's occurrences ended a sentence."""
    counts = draw(st.dictionaries(st.text(alphabet=SEED_CHARS, min_size=1, max_size=9),
                                  st.integers(1, 4) | st.integers(1, 2**70), max_size=12))
    ends = {word: draw(st.integers(0, count)) for word, count in counts.items() if draw(st.booleans())}
    return counts, ends


@given(words_and_ends())
def test_frequent_substrings_are_the_suffix_tree_nodes(case: tuple[dict[str, int], dict[str, int]]) -> None:
    """Every node of depth 2..max of the UTF-8 suffix tree that ends on a char, with its
    frequency * length, best first as sentencepiece ranks them."""
    word_counts, ends = case
    rules = PieceRules(max_piece_length=5, split_by_unicode_script=False)
    rules.learn_chars(SEED_CHARS.replace(UNK_CHAR, ""))
    found = frequent_substrings(word_counts, rules, 10_000, sentence_ends=ends)
    nodes = {piece: count for piece, count in brute_force_nodes(word_counts, 5, ends).items() if rules.valid(piece)}
    assert dict(found) == {piece: count * len(piece) for piece, count in nodes.items()}
    assert found == sorted(found, key=lambda item: (-item[1], -len(item[0].encode("utf-8")), item[0]))
    first, second = halves_of_chars(word_counts)
    assert not first & second and first | second == set("".join(word_counts))
    assert {**suffix_nodes(word_counts, rules, first, ends), **suffix_nodes(word_counts, rules, second, ends)} \
        == suffix_nodes(word_counts, rules, sentence_ends=ends)


def test_frequent_substrings_in_two_processes() -> None:
    """The seed's suffix-tree nodes searched in two processes are the ones of one process."""
    words = {"".join(random.Random(seed).choices("▁abcdeé漢字", k=1 + seed % 30)): 1 + seed % 5 for seed in range(300)}
    ends = {word: count // 2 for word, count in list(words.items())[::3]}
    rules = PieceRules(max_piece_length=6)
    rules.learn_chars("▁abcdeé漢字")
    assert frequent_substrings(words, rules, 500, processes=2, sentence_ends=ends) \
        == frequent_substrings(words, rules, 500, sentence_ends=ends)


def test_sentence_ends_cannot_exceed_the_counts() -> None:
    """A word cannot end more sentences than it occurs in: a clear ValueError."""
    with pytest.raises(ValueError, match="'▁b' 3 times, more than word_counts"):
        UnigramTrainer(20, show_progress=False).train({"▁a": 2, "▁b": 2}, {"▁b": 3})


def test_piece_rules() -> None:
    """▁ only in front, one script per piece (kana with Han), digits apart from letters, length cap."""
    rules = PieceRules(max_piece_length=4)
    rules.learn_chars("▁abcé12漢字かなカナ,\u0301")
    assert rules.valid("▁abc") and rules.valid("abc") and rules.valid("漢字かな") and rules.valid("e\u0301")
    assert not rules.valid("a▁b") and not rules.valid("abcde") and not rules.valid("a1")
    assert not rules.valid("ab,") and rules.valid("12") and not rules.valid("a字")
    assert not PieceRules(split_digits=True).valid("12")


WORDS = {"▁low": 5, "▁lower": 2, "▁newest": 6, "▁widest": 3, "▁the": 9, "▁then": 4, "▁new": 3, "▁ü": 1}


def test_trained_vocabulary_shape() -> None:
    """Exact size, meta pieces first (unk at 0), every char kept, scores sorted, no duplicates."""
    model = UnigramTrainer(18, special_tokens=["<s>", "</s>"], show_progress=False).train(WORDS)
    pieces = [piece for piece, _ in model.vocab]
    assert model.get_vocab_size() == 18 and len(set(pieces)) == 18
    assert pieces[:3] == ["<unk>", "<s>", "</s>"] and model.unk_id == 0
    assert set("".join(WORDS)) <= set(pieces)
    learned = [score for _, score in model.vocab[3:]]
    assert learned == sorted(learned, reverse=True) and all(score < 0 for score in learned)
    assert all(model.encode(piece) == [piece] for piece in pieces[3:])  # no piece is unreachable


def test_unk_among_special_tokens_keeps_its_place() -> None:
    """An unk token listed among the special tokens takes that id; byte fallback adds the 256 byte pieces."""
    model = UnigramTrainer(300, special_tokens=["<pad>", "<unk>"], byte_fallback=True,
                           show_progress=False).train(WORDS)
    pieces = [piece for piece, _ in model.vocab]
    assert model.unk_id == 1 and pieces[:3] == ["<pad>", "<unk>", "<0x00>"] and pieces[257] == "<0xFF>"
    assert model.byte_fallback and [token.value for token in model.tokenize("▁ß")][-2:] == ["<0xC3>", "<0x9F>"]


def test_character_coverage_leaves_rare_chars_out() -> None:
    """Chars beyond the coverage are not pieces and encode as unk."""
    words = {"▁aaaa": 1000, "▁bbbb": 1000, "▁z": 1}
    model = UnigramTrainer(10, character_coverage=0.999, show_progress=False).train(words)
    assert "z" not in model.get_vocab() and "a" in model.get_vocab()
    assert [token.id for token in model.tokenize("z")] == [model.unk_id]


def test_vocabulary_too_small() -> None:
    """Fewer slots than required chars plus specials is refused with the reason."""
    with pytest.raises(VocabularyTooSmall, match="required characters"):
        UnigramTrainer(5, show_progress=False).train(WORDS)


def test_progress_bar_counts_em_steps(capsys: pytest.CaptureFixture[str]) -> None:
    """show_progress draws a tqdm bar of EM steps on stderr; the result is the same as without it."""
    quiet = UnigramTrainer(18, show_progress=False).train(WORDS)
    shown = UnigramTrainer(18, show_progress=True).train(WORDS)
    assert shown.vocab == quiet.vocab
    assert "Unigram EM" in capsys.readouterr().err


def test_empty_input_gives_the_meta_pieces() -> None:
    """Nothing to learn from: the vocabulary is the special tokens alone."""
    model = UnigramTrainer(100, special_tokens=["<s>"], show_progress=False).train({"": 3, "▁a": 0})
    assert [piece for piece, _ in model.vocab] == ["<unk>", "<s>"] and model.unk_id == 0


@given(st.text(alphabet="abcd", max_size=14))
def test_starts_are_the_spans_grouped_by_start(text: str) -> None:
    """The model's per-start candidates are its (start, end, id) spans, in the same order."""
    model = Unigram(VOCAB, unk_id=0)
    assert model.starts(text) == model_spans(model, text)
    assert [score for *_, score in model.spans(text)] == [
        model.unk_score if token_id == 0 else VOCAB[token_id][1] for _, _, token_id, _ in model.spans(text)]


def test_shared_segments_are_counted_once_and_spread_over_the_chunks() -> None:
    """A segment in several chunks keeps its total count in exactly one of them, and the
    chunks that keep shared segments vary (chunk 0 is not given them all)."""
    shared = [f"▁w{index}" for index in range(400)]
    segments = [(shared + [f"▁own{chunk}"], [chunk + 1] * 401) for chunk in range(4)]
    counts = shared_counts(segments)
    for index in range(400):
        column = [counts[chunk][index] for chunk in range(4)]
        assert sorted(column) == [0, 0, 0, 1 + 2 + 3 + 4]
    assert [counts[chunk][400] for chunk in range(4)] == [1, 2, 3, 4]
    kept = [sum(1 for count in counts[chunk][:400] if count) for chunk in range(4)]
    assert min(kept) > 60, kept


def test_worker_processes_give_the_same_model() -> None:
    """Training in 3 worker processes gives exactly the vocabulary and scores of one process."""
    words = {f"▁{a}{b}{c}": 1 + (index * 7) % 13 for index, (a, b, c) in
             enumerate(itertools.product("lowstnei", "aeiour", "dnrstw"))}
    words.update({"▁" + "".join(random.Random(seed).choices("lowstneiar", k=40)): 2 for seed in range(30)})
    one = UnigramTrainer(120, show_progress=False).train(words)
    three = UnigramTrainer(120, show_progress=False, workers=3).train(words)
    assert three.vocab == one.vocab and len(one.vocab) == 120


@given(st.lists(st.tuples(st.text(alphabet="abcd", min_size=1, max_size=12), st.integers(1, 5)), min_size=1, max_size=6),
       st.sets(st.integers(0, len(VOCAB) - 1)))
def test_cut_segments_give_the_words_expectations(words: list[tuple[str, int]], dropped: set[int]) -> None:
    """A chunk cut where no span crosses (and renumbered after dropping pieces) expects and
    counts what the whole words do."""
    from hfcompat.trainers.unigram import _Chunk

    model = Unigram(VOCAB, unk_id=0)
    probs = [math.exp(score) for score in scores_of(model)]
    chunk = _Chunk.of(words, model)
    keep = [index for index in range(len(VOCAB)) if index not in dropped or index == 0 or len(VOCAB[index][0]) == 1]
    new_ids = [float(keep.index(index)) if index in keep else -1.0 for index in range(len(VOCAB))]
    chunk.compact(new_ids)
    reference = [0.0] * len(VOCAB)
    best = [0.0] * len(VOCAB)
    live_probs = [probs[index] if index in keep else 0.0 for index in range(len(VOCAB))]
    live_scores = [math.log(prob) if prob > 0.0 else -math.inf for prob in live_probs]
    for word, count in words:
        span_marginals(model.starts(word), live_probs, count, reference)
        for _, _, piece in span_viterbi(model.starts(word), live_scores):
            best[piece] += count
    assert chunk.expected([probs[index] for index in keep], 16) == pytest.approx([reference[index] for index in keep])
    assert chunk.best_counts([live_scores[index] for index in keep]) == [best[index] for index in keep]


def best_other_segmentation(piece: str, scores: dict[str, float], unk: float) -> float:
    """The highest score of a segmentation of `piece` into pieces of `scores` other than the
    whole piece; a char may always be spelled unk."""
    best = [0.0] + [-math.inf] * len(piece)
    for end in range(1, len(piece) + 1):
        for start in range(end):
            if (start, end) == (0, len(piece)):
                continue
            score = scores.get(piece[start:end], unk if end - start == 1 else -math.inf)
            best[end] = max(best[end], best[start] + score)
    return best[-1]


@given(st.integers(0, 2**32 - 1))
def test_second_best_segmentations_are_the_best_other_ones(seed: int) -> None:
    """SubPieces.second_best finds each piece's best segmentation other than itself under the
    live pieces (a dead char spelled by the unk stand-in, id 0), None where it beats the piece,
    and the same with the spans it kept from an earlier call, when more pieces were alive."""
    rng = random.Random(seed)
    pieces = [UNK_CHAR, "a", "b", "c"] + sorted({"".join(rng.choices("abc", k=rng.randint(2, 6))) for _ in range(12)})
    sub_pieces = SubPieces(pieces)
    alive = [True] * len(pieces)
    for _ in range(3):  # more pieces die before each call, as before each pruning
        alive = [index == 0 or (was_alive and rng.random() < 0.8) for index, was_alive in enumerate(alive)]
        raw = [rng.uniform(-12.0, -1.0) for _ in pieces]
        live = {pieces[index]: raw[index] for index in range(1, len(pieces)) if alive[index]}
        unk = min(live.values(), default=0.0) - 10.0
        scores = [raw[index] if alive[index] else -math.inf for index in range(len(pieces))]
        scores[0] = unk
        ids = [index for index in range(1, len(pieces)) if alive[index]]
        for index, second in zip(ids, sub_pieces.second_best(ids, scores)):
            piece = pieces[index]
            if len(piece) == 1:
                assert second == []
                continue
            expected = best_other_segmentation(piece, live, unk)
            if expected > scores[index]:
                assert second is None
                continue
            assert second is not None
            position = 0
            for token in second:  # they spell the piece: live pieces, or unk for a char with no live piece
                spelled = piece[position] if token == 0 else pieces[token]
                assert piece.startswith(spelled, position) and (spelled in live) == (token != 0)
                position += len(spelled)
            assert position == len(piece) and second != [index]
            assert sum(scores[token] for token in second) == pytest.approx(expected)


@given(st.dictionaries(st.text(alphabet="abc", max_size=3), st.integers(0, 3) | st.floats(-3.0, 3.0)))
def test_most_common_first_orders_by_value_then_key(counts: dict[str, float]) -> None:
    """The order the trainer ranks chars, seed pieces and pruning candidates in: highest value
    first, equal values by key (the one-sort definition, with ties frequent here)."""
    assert most_common_first(counts.items()) == sorted(counts.items(), key=lambda item: (-item[1], item[0]))
