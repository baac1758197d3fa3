"""`Tokenizer.explain`: every stage of encoding one text, with the model's steps for each word.

The stages are run by the tokenizer's own components; the model steps come from trace hooks in
the models (BPE's merge loop, WordPiece's longest-match loop) and from the Unigram lattice, so
what is shown is what `encode` does.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import UnsupportedConversion
from .. import models

if TYPE_CHECKING:  # each model's module loads when a model of its kind is explained
    from ..models.bpe import BPE
    from ..models.unigram import Unigram
    from ..models.wordpiece import WordPiece

CANDIDATES = 3  # next-best Unigram paths shown
MAX_LATTICE_CHARS = 64  # longer words get no n-best list (it grows with the lattice)
MAX_ALIGNMENTS_SHOWN = 12


@dataclass
class Step:
    """One step of a model on one word: what it did, and the symbols after it."""

    action: str  # "symbols", "merge", "match", "fail", "whole", "unknown", "path", "candidate", "lookup"
    detail: str
    symbols: list[str] = field(default_factory=list)
    rank: int | None = None  # BPE merges
    pair: tuple[str, str] | None = None  # BPE merges: the two symbols merged
    score: float | None = None  # Unigram paths


@dataclass
class Word:
    """A pre-token, where it comes from, the model's steps and the tokens it gave."""

    text: str
    offsets: tuple[int, int]
    added_token: bool
    steps: list[Step]
    tokens: list[tuple[int, str]]


@dataclass
class Explanation:
    """What `encode` did with one text, stage by stage."""

    text: str
    normalizer: str
    normalized: str
    alignments: list[tuple[int, int]]  # original char span of each normalized char
    pre_tokenizer: str
    model: str
    words: list[Word]
    truncation: str
    post_processor: str
    added: list[tuple[int, int, str]]  # (position, id, token) added after the model
    ids: list[int]
    tokens: list[str]
    offsets: list[tuple[int, int]]
    decoded: str

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for --json)."""
        return asdict(self)

    def to_json(self) -> str:
        """The explanation as JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    def __str__(self) -> str:
        return render(self)


def explain(tokenizer: Any, text: str, add_special_tokens: bool = True) -> Explanation:
    """Run each stage of `tokenizer` on `text` and record what it did."""
    normalize = tokenizer.normalizer.normalize if tokenizer.normalizer is not None else None
    pretokenized = tokenizer.added_vocabulary.extract_and_normalize(normalize, text)
    normalized, alignments = _normalized_view(pretokenized)
    if tokenizer.pre_tokenizer is not None:
        tokenizer.pre_tokenizer.pre_tokenize(pretokenized)
    words = [_word(tokenizer, split) for split in pretokenized.splits]
    encoding = tokenizer.encode(text, add_special_tokens=add_special_tokens)
    added = [(i, token_id, token) for i, (token_id, token, word) in
             enumerate(zip(encoding.ids, encoding.tokens, encoding.word_ids)) if word is None]
    kept = len(encoding.ids) - len(added)
    dropped = sum(len(word.tokens) for word in words) - kept
    truncation = "none" if tokenizer.truncation is None else (
        f"max_length {tokenizer.truncation.max_length}: {dropped} tokens dropped" if dropped
        else f"max_length {tokenizer.truncation.max_length}: nothing dropped")
    return Explanation(
        text=text, truncation=truncation, normalizer=describe(tokenizer.normalizer), normalized=normalized,
        alignments=alignments, pre_tokenizer=describe(tokenizer.pre_tokenizer),
        model=type(tokenizer.model).__name__, words=words,
        post_processor=describe(tokenizer.post_processor) if add_special_tokens else "not applied",
        added=added, ids=list(encoding.ids), tokens=list(encoding.tokens),
        offsets=[tuple(o) for o in encoding.offsets],
        decoded=tokenizer.decode(list(encoding.ids), skip_special_tokens=False))


def _normalized_view(pretokenized: Any) -> tuple[str, list[tuple[int, int]]]:
    """The normalized text of all splits and the original span of each of its chars."""
    parts, alignments = [], []
    for split in pretokenized.splits:
        ns = split.normalized
        parts.append(ns.normalized)
        alignments += [(ns.original_shift + start, ns.original_shift + end) for start, end in ns.alignments]
    return "".join(parts), alignments


def _word(tokenizer: Any, split: Any) -> Word:
    """Explain one split: an added token as it is, anything else through the model."""
    ns = split.normalized
    offsets = ns.offsets_original()
    if split.tokens is not None:
        tokens = [(token[0], token[1]) for token in split.tokens]
        step = Step("added", f"added token {tokens[0][1]!r} (split out before the model)",
                    [value for _, value in tokens])
        return Word(ns.normalized, offsets, True, [step], tokens)
    model = tokenizer.model
    tokens = [(token.id, token.value) for token in model.tokenize(ns.normalized)]
    return Word(ns.normalized, offsets, False, model_steps(model, ns.normalized), tokens)


def model_steps(model: Any, word: str) -> list[Step]:
    """The steps the model takes on one pre-token."""
    if isinstance(model, models.BPE):
        return bpe_steps(model, word)
    if isinstance(model, models.WordPiece):
        return wordpiece_steps(model, word)
    if isinstance(model, models.Unigram):
        return unigram_steps(model, word)
    tokens = model.tokenize(word)
    return [Step("lookup", f"{type(model).__name__}: the whole word is looked up",
                 [token.value for token in tokens])]


# ------------------------------------------------------------------ BPE


def bpe_steps(model: BPE, word: str) -> list[Step]:
    """The initial symbols, then each merge applied (lowest rank first) with the symbols after it."""
    if not word:
        return []
    if model.ignore_merges and word in model.vocab:
        return [Step("whole", "the whole word is in the vocabulary (ignore_merges)", [word])]
    ids, lengths = model._symbols(word)
    symbols = [model.vocab_r[token_id] for token_id in ids]
    steps = [Step("symbols", _symbols_detail(model, word, symbols), list(symbols))]
    trace: list[tuple[int, int]] = []
    model._merge_with_heap(list(ids), list(lengths), model.dropout, trace)
    alive = list(range(len(ids)))  # original positions of the symbols still there
    current = dict(enumerate(symbols))
    for rank, position in trace:
        index = alive.index(position)
        right = alive.pop(index + 1)
        left_token, right_token = current[position], current.pop(right)
        current[position] = model.vocab_r[model._new_ids[rank]]
        steps.append(Step("merge", f"{left_token!r} + {right_token!r} -> {current[position]!r}",
                          [current[p] for p in alive], rank=rank, pair=(left_token, right_token)))
    return steps


def _symbols_detail(model: BPE, word: str, symbols: list[str]) -> str:
    """How the word became its first symbols (one per char, bytes or unk where needed)."""
    notes = []
    if any(s.startswith("<0x") and len(s) == 6 for s in symbols) and model.byte_fallback:
        notes.append("chars outside the vocabulary spelled as <0xHH> bytes")
    if model.unk_token is not None and model.unk_token in symbols:
        notes.append(f"chars outside the vocabulary became {model.unk_token!r}")
    if model.dropout:
        notes.append(f"dropout {model.dropout}: the merges below are one random draw")
    extra = f" ({'; '.join(notes)})" if notes else ""
    return f"{len(symbols)} initial symbols{extra}"


# ------------------------------------------------------------------ WordPiece


def wordpiece_steps(model: WordPiece, word: str) -> list[Step]:
    """Each longest match from left to right, or why the word became the unknown token."""
    if len(word) > model.max_input_chars_per_word:
        return [Step("unknown", f"{len(word)} chars > max_input_chars_per_word "
                                f"{model.max_input_chars_per_word}: the whole word is {model.unk_token!r}",
                     [model.unk_token])]
    if word and word in model.vocab:
        return [Step("whole", "the whole word is in the vocabulary", [word])]
    pieces: list[tuple[int, str, int, int]] = []
    found = model.reference_matcher.fill(word, pieces)
    steps = []
    matched: list[str] = []
    for _, piece, start, end in pieces:
        tried = min(len(word), start + model.reference_matcher.longest_candidate(word, start)) - end
        matched.append(piece)
        steps.append(Step("match", f"at char {start}: longest match {piece!r} ({end - start} chars; "
                                   f"{tried} longer candidates not in the vocabulary)", list(matched)))
    if found is None:
        position = pieces[-1][3] if pieces else 0
        steps.append(Step("fail", f"at char {position}: no vocabulary piece starts with {word[position]!r}: "
                                  f"the whole word is {model.unk_token!r}", [model.unk_token]))
    return steps


# ------------------------------------------------------------------ Unigram


def unigram_steps(model: Unigram, word: str, candidates: int = CANDIDATES) -> list[Step]:
    """The best segmentation with its score, then the next best segmentations of the lattice."""
    if not word:
        return []
    spans = model.reference_viterbi.best_path(word)
    best = [word[start:end] for start, end, _ in spans]
    score = sum(_span_score(model, start, end, token_id) for start, end, token_id in spans)
    steps = [Step("path", f"best path, score {score:.6f} (sum of piece log-probabilities)", best, score=score)]
    if len(word) > MAX_LATTICE_CHARS:
        return steps
    lattice = model.lattice(word)
    for path in lattice.nbest(candidates + 1):
        pieces = [lattice.piece(node) for node in path]
        if pieces == best or not pieces:
            continue
        total = sum(node.score for node in path)
        steps.append(Step("candidate", f"next best, score {total:.6f} ({score - total:.6f} below)",
                          pieces, score=total))
    return steps[: candidates + 1]


def _span_score(model: Unigram, start: int, end: int, token_id: int) -> float:
    """Score of one span of the best path (a fused unknown span scores per char)."""
    if token_id == model.unk_id:
        return model.unk_score * (end - start)
    return model.vocab[token_id][1]


# ------------------------------------------------------------------ text form


def render(explanation: Explanation) -> str:
    """A readable, line-oriented account of the explanation."""
    e = explanation
    lines = [f"text:        {e.text!r}", f"normalizer:  {e.normalizer}", f"normalized:  {e.normalized!r}"]
    changed = [(i, span) for i, span in enumerate(e.alignments)
               if e.text[span[0]:span[1]] != e.normalized[i]]
    if changed:
        shown = ", ".join(f"{e.normalized[i]!r}<-{e.text[s:t]!r}@{s}" for i, (s, t) in changed[:MAX_ALIGNMENTS_SHOWN])
        more = f", ... {len(changed) - MAX_ALIGNMENTS_SHOWN} more" if len(changed) > MAX_ALIGNMENTS_SHOWN else ""
        lines.append(f"alignment:   {len(changed)} normalized chars differ from the original: {shown}{more}")
    else:
        lines.append("alignment:   each normalized char is the original char")
    lines.append(f"pre-tokenizer: {e.pre_tokenizer}: {len(e.words)} pre-tokens")
    lines.append("  " + " ".join(f"{w.text!r}{list(w.offsets)}" for w in e.words))
    lines.append(f"model:       {e.model}")
    for word in e.words:
        lines.append(f"  {word.text!r} {list(word.offsets)}")
        for step in word.steps:
            rank = f" (rank {step.rank})" if step.rank is not None else ""
            lines.append(f"    {step.action}{rank}: {step.detail}")
            if step.action in ("symbols", "merge", "path", "candidate", "match"):
                lines.append(f"      {' '.join(step.symbols)}")
        lines.append("    -> " + " ".join(f"{token}={token_id}" for token_id, token in word.tokens))
    lines.append(f"truncation:  {e.truncation}")
    added = ", ".join(f"{token!r}={token_id} at {i}" for i, token_id, token in e.added) or "nothing"
    lines.append(f"post-processor: {e.post_processor}: adds {added}")
    lines.append(f"tokens:      {json.dumps(e.tokens, ensure_ascii=False)}")
    lines.append(f"ids:         {json.dumps(e.ids)}")
    lines.append(f"offsets:     {json.dumps([list(o) for o in e.offsets])}")
    lines.append(f"decoded:     {e.decoded!r}")
    return "\n".join(lines)


def describe(component: Any) -> str:
    """A component's type, with the members of a Sequence: "Sequence[NFD, Lowercase]"."""
    if component is None:
        return "none"
    try:
        return _describe_dict(component.to_dict())
    except UnsupportedConversion:
        return type(component).__name__  # hfcompat's own component: no tokenizer.json type


def _describe_dict(data: dict[str, Any]) -> str:
    """The "type" of a component dict, recursing into a list of sub-components."""
    name = str(data.get("type", "?"))
    for value in data.values():
        if isinstance(value, list) and value and all(isinstance(v, dict) and "type" in v for v in value):
            return f"{name}[{', '.join(_describe_dict(v) for v in value)}]"
    return name
