"""transformers' Python classes that run sentencepiece on a .model and give its pieces the ids of another table
(models/piece_map.py), built as AutoTokenizer (transformers 5.24) builds them.

- M2M100Tokenizer: sentencepiece.bpe.model, pieces looked up in vocab.json (<unk>'s id when absent);
  "__src__ $A </s>" (pairs "__src__ $A $B </s>"), the language code's id len(vocab.json) + its position in
  the class's list (config language_codes), never an added token unless the config lists it.
- Speech2TextTokenizer: the same files and lookup; "$A </s>", with config lang_codes the target language's
  "<lang:xx>" before it, whose id is its sentencepiece id.
- MarianTokenizer: source.spm and vocab.json; a text starting with ">>xx<<" keeps that code as one token;
  "$A </s>" / "$A $B </s>". (It sets up sacremoses' MosesPunctNormalizer but never calls it when encoding.)
- PLBartTokenizer: sentencepiece.bpe.model with fairseq's ids (<s> <pad> </s> <unk> at 0-3, piece i at i + 1,
  the language codes and, for language_codes "base", <mask> after the pieces); "$A </s>" or "$A </s> __src__".
- BartphoTokenizer: sentencepiece.bpe.model, pieces looked up in the roles then dict.txt's words (fairseq
  order), <unk>'s id when absent; "<s> $A </s>" / "<s> $A </s> </s> $B </s>".
- SiglipTokenizer: spiece.model's own ids after its text handling (pre_tokenizers/siglip_text.py); "$A </s>"
  unless the ids already end with </s>.

Decoding follows each class's convert_tokens_to_string: sentencepiece's decode of the pieces between special
tokens (M2M100, Speech2Text, Marian, Siglip), or the pieces joined with "▁" as spaces (PLBart, Bartpho); the text
stripped, and transformers' clean-up of spaces when clean_up_tokenization_spaces is on (PLBart's default).
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from ... import decoders
from ...errors import FormatError
from ...models.piece_map import PieceMap
from ...models.vocab_files import read_vocab_json
from ...pre_tokenizers.siglip_text import SiglipText
from ...processors.byt5 import ByT5Processing
from ...processors.prefix_suffix import PrefixSuffixProcessing
from ..sentencepiece.read import parse_model, read_sentencepiece, readable, sentencepiece_source, tokenizer_from_proto
from . import classes
from .classes import role, token_text

Config = dict[str, Any]
Data = dict[str, Any]

ROLE_KEYS = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")
# The language codes of M2M100Tokenizer (config language_codes), Speech2TextTokenizer (lang_codes) and
# PLBartTokenizer (language_codes), in the classes' order.
M2M100_LANGUAGES = {
    "m2m100": ("af am ar ast az ba be bg bn br bs ca ceb cs cy da de el en es et fa ff fi fr fy ga gd gl gu ha he hi "
               "hr ht hu hy id ig ilo is it ja jv ka kk km kn ko lb lg ln lo lt lv mg mk ml mn mr ms my ne nl no ns "
               "oc or pa pl ps pt ro ru sd si sk sl so sq sr ss su sv sw ta th tl tn tr uk ur uz vi wo xh yi yo zh "
               "zu").split(),
    "wmt21": "en ha is ja cs ru zh de".split(),
}
SPEECH2TEXT_LANGUAGES = {"mustc": "pt fr ru nl ro it es de".split()}
PLBART_LANGUAGES = {"base": ["__java__", "__python__", "__en_XX__"],
                    "multi": ["__java__", "__python__", "__en_XX__", "__javascript__", "__php__", "__ruby__", "__go__"]}
PLBART_SHORT_NAMES = {code.strip("_"): code for code in PLBART_LANGUAGES["multi"]}
FAIRSEQ_SPECIALS = ("<s>", "<pad>", "</s>", "<unk>")


def _file(directory: Path, name: str) -> Path:
    """A file the class reads, or a FormatError saying transformers cannot load without it."""
    path = directory / name
    if not path.is_file():
        raise FormatError(f"no {name}: transformers' class reads it", path=str(path))
    return path


def _pieces(segmenter: Any) -> list[str]:
    """The pieces of a read .model, in id order."""
    return readable(sentencepiece_source(segmenter).proto).texts


def _choice(config: Config, key: str, default: str, table: dict[str, Any]) -> Any:
    """The table entry the config's option names (FormatError for one the class does not know)."""
    value = config.get(key) if config.get(key) is not None else default
    if value not in table:
        raise FormatError(f"{value!r} is not one of {sorted(table)} (transformers refuses it)", field=key)
    return table[value]


def special_tokens(config: Config, name: str) -> frozenset[str]:
    """transformers' all_special_tokens of the class: its roles and the config's extra special tokens."""
    found = set(classes.class_roles(config, name, ROLE_KEYS).values())
    for key in ("additional_special_tokens", "extra_special_tokens"):
        extra = config.get(key) or []
        found.update(token for token in map(token_text, extra.values() if isinstance(extra, dict) else extra) if token)
    return frozenset(found)


def _unk_id(vocab: dict[str, int], unk: str, path: Path) -> int:
    """The unk token's id in the table (transformers fails on the first unknown piece without it)."""
    if unk not in vocab:
        raise FormatError(f"the unk token {unk!r} is not in the vocabulary (transformers needs it)", path=str(path))
    return vocab[unk]


def _run_decoder(segmenter: Any, config: Config, name: str, space_after: bool, spaces: bool = False,
                 class_specials: tuple[str, ...] = ()) -> Any:
    """sentencepiece's decode of the pieces between special tokens (the config's and `class_specials`), the
    specials kept (with a space after each: `space_after`), "▁" left over turned into spaces (`spaces`), the
    text stripped."""
    runs = decoders.SpecialTokenRuns(_sentencepiece_decode(segmenter), special_tokens(config, name) | set(class_specials),
                                     space_before=False, space_after=space_after)
    return _cleaned_up(decoders.RewrittenText(runs, "\u2581" if spaces else "(?!)", " ", True),
                       bool(config.get("clean_up_tokenization_spaces", False)))


def _cleaned_up(decoder: Any, clean_up: bool) -> Any:
    """The decoder, followed by transformers' clean-up of spaces when clean_up_tokenization_spaces is on."""
    return decoders.CleanedUp(decoder) if clean_up else decoder


def _sentencepiece_decode(segmenter: Any) -> Any:
    """sentencepiece's own decode of pieces: the .model's decoder with its byte steps as sentencepiece takes
    invalid UTF-8 (one U+FFFD per byte that starts no character)."""
    steps = segmenter.decoder.decoders if isinstance(segmenter.decoder, decoders.Sequence) else [segmenter.decoder]
    return decoders.Sequence([decoders.SentencePieceByteFallback() if isinstance(step, decoders.ByteFallback) else step
                              for step in steps])


def _joined_decoder(config: Config, clean_up_default: bool) -> Any:
    """SentencePieceBackend's convert_tokens_to_string: the tokens joined, "▁" to spaces, stripped."""
    joined = decoders.from_dict({"type": "Sequence", "decoders": [
        {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "}, {"type": "Fuse"}]})
    clean_up = config.get("clean_up_tokenization_spaces")
    return _cleaned_up(decoders.RewrittenText(joined, "(?!)", "", True),
                       clean_up_default if clean_up is None else bool(clean_up))


def _specials_entries(tokens: list[str], lstrip: frozenset[str] = frozenset()) -> list[Data]:
    """added_tokens entries of special tokens the class adds itself (ids from the table on loading)."""
    return [{"id": 0, "content": token, "single_word": False, "lstrip": token in lstrip, "rstrip": False,
             "normalized": False, "special": True} for token in tokens]


def m2m100(directory: Path, config: Config) -> Data:
    """M2M100Tokenizer: vocab.json's ids for sentencepiece.bpe.model's pieces, "__src__ $A </s>"."""
    vocab_path = _file(directory, "vocab.json")
    vocab = read_vocab_json(vocab_path)
    segmenter = read_sentencepiece(_file(directory, "sentencepiece.bpe.model"))
    codes = _choice(config, "language_codes", "m2m100", M2M100_LANGUAGES)
    source = config.get("src_lang") or "en"
    if source not in codes:
        raise FormatError(f"src_lang {source!r} is not one of the class's language codes", field="src_lang")
    languages = {len(vocab) + index: f"__{code}__" for index, code in enumerate(codes)}
    names = {token_id: token for token, token_id in vocab.items()} | languages
    unk = role(config, "unk_token", "<unk>")
    eos = role(config, "eos_token", "</s>")
    prefix = [(f"__{source}__", len(vocab) + codes.index(source))]
    return {"model": PieceMap(segmenter, vocab, _unk_id(vocab, unk, vocab_path), names),
            "decoder": _run_decoder(segmenter, config, "M2M100Tokenizer", space_after=False),
            "post_processor": PrefixSuffixProcessing(prefix, [(eos, vocab.get(eos))])}


def speech2text(directory: Path, config: Config) -> Data:
    """Speech2TextTokenizer: vocab.json's ids for sentencepiece.bpe.model's pieces, "$A </s>" (the target
    language's code first with lang_codes)."""
    vocab_path = _file(directory, "vocab.json")
    vocab = read_vocab_json(vocab_path)
    segmenter = read_sentencepiece(_file(directory, "sentencepiece.bpe.model"))
    names = {token_id: token for token, token_id in vocab.items()}
    unk = role(config, "unk_token", "<unk>")
    eos = role(config, "eos_token", "</s>")
    prefix, added = [], []
    if config.get("lang_codes") is not None:
        languages = _choice(config, "lang_codes", "mustc", SPEECH2TEXT_LANGUAGES)
        target = config.get("tgt_lang") or languages[0]
        added = [f"<lang:{code}>" for code in languages]
        pieces = _pieces(segmenter)
        code = f"<lang:{target}>"
        piece_id = pieces.index(code) if code in pieces else sentencepiece_source(segmenter).proto.trainer_spec.unk_id
        prefix = [(names.get(piece_id, unk), piece_id)]
    if config.get("do_upper_case"):
        warnings.warn(f"{directory}: transformers' Speech2TextTokenizer upper-cases the decoded text between special "
                      "tokens (do_upper_case true); hfcompat's decode does not", UserWarning, stacklevel=2)
    return {"model": PieceMap(segmenter, vocab, _unk_id(vocab, unk, vocab_path), names),
            "decoder": _run_decoder(segmenter, config, "Speech2TextTokenizer", space_after=True,
                                    class_specials=tuple(added)),
            "post_processor": PrefixSuffixProcessing(prefix, [(eos, vocab.get(eos))]),
            "added_tokens": _specials_entries(added)}


def marian(directory: Path, config: Config) -> Data:
    """MarianTokenizer: vocab.json's ids for source.spm's pieces, a leading ">>xx<<" kept whole, "$A </s>"."""
    vocab_path = _file(directory, "vocab.json")
    vocab = read_vocab_json(vocab_path)
    segmenter = read_sentencepiece(_file(directory, "source.spm"))
    separate = bool(config.get("separate_vocabs", False))
    target_vocab = read_vocab_json(_file(directory, "target_vocab.json")) if separate else vocab
    # Outside vocab.json, an id names the piece of that id in the .model decode reads.
    decoding = read_sentencepiece(_file(directory, "target.spm")) if separate else segmenter
    names = dict(enumerate(_pieces(decoding))) | {token_id: token for token, token_id in target_vocab.items()}
    unk = role(config, "unk_token", "<unk>")
    eos = role(config, "eos_token", "</s>")
    model = PieceMap(segmenter, vocab, _unk_id(vocab, unk, vocab_path), names, code_marks=(">>", "<<"))
    return {"model": model,
            "decoder": _run_decoder(decoding, config, "MarianTokenizer", space_after=True, spaces=True),
            "post_processor": PrefixSuffixProcessing([], [(eos, vocab.get(eos))])}


def plbart(directory: Path, config: Config) -> Data:
    """PLBartTokenizer: fairseq's ids over sentencepiece.bpe.model, "$A </s>" then the source language's code."""
    segmenter = _backend_segmenter(directory, "sentencepiece.bpe.model", config, "PLBartTokenizer")
    kind = config.get("language_codes") or "base"
    codes = _choice(config, "language_codes", "base", PLBART_LANGUAGES)
    pieces = _pieces(segmenter)
    fairseq = {token: index for index, token in enumerate(FAIRSEQ_SPECIALS)}
    fairseq |= {code: len(pieces) + 1 + index for index, code in enumerate(codes)}
    if kind == "base":
        fairseq["<mask>"] = len(pieces) + len(codes) + 1
    vocab = dict(fairseq)
    for index, piece in enumerate(pieces):
        vocab.setdefault(piece, fairseq["<unk>"] if index == 0 else index + 1)
    names = {index + 1: piece for index, piece in enumerate(pieces)} | {i: token for token, i in fairseq.items()}
    source = config.get("src_lang") or (None if kind == "base" else "__en_XX__")
    source = PLBART_SHORT_NAMES.get(source, source)
    if source is not None and source not in codes:
        raise FormatError(f"src_lang {source!r} is not one of the class's language codes", field="src_lang")
    eos = role(config, "eos_token", "</s>")
    suffix = [(eos, vocab.get(eos))] + ([(source, fairseq[source])] if source else [])
    extras = [token for token in codes if token not in special_tokens(config, "PLBartTokenizer")]
    return {"model": PieceMap(segmenter, vocab, fairseq["<unk>"], names, unk_text=_legacy_unk(config)),
            "decoder": _joined_decoder(config, clean_up_default=True),
            "post_processor": PrefixSuffixProcessing([], suffix, first_split=False),
            "added_tokens": _specials_entries(extras)}


def bartpho(directory: Path, config: Config) -> Data:
    """BartphoTokenizer: the ids of the roles then dict.txt's words for sentencepiece.bpe.model's pieces,
    "<s> $A </s>" / "<s> $A </s> </s> $B </s>" (type ids 0)."""
    segmenter = _backend_segmenter(directory, "sentencepiece.bpe.model", config, "BartphoTokenizer")
    roles = {key: role(config, key, default) for key, default in classes.DEFAULT_ROLES["BartphoTokenizer"].items()}
    vocab: dict[str, int] = {}
    for key in ("bos_token", "pad_token", "eos_token", "unk_token", "sep_token", "cls_token"):
        vocab.setdefault(roles[key], len(vocab))
    for word in _dict_words(_file(directory, "dict.txt")):
        vocab[word] = len(vocab)
    vocab.setdefault(roles["mask_token"], len(vocab))
    names = {token_id: token for token, token_id in vocab.items()}
    cls, sep = (roles["cls_token"], vocab[roles["cls_token"]]), (roles["sep_token"], vocab[roles["sep_token"]])
    mask = roles["mask_token"]
    return {"model": PieceMap(segmenter, vocab, vocab[roles["unk_token"]], names, unk_text=_legacy_unk(config)),
            "decoder": _joined_decoder(config, clean_up_default=False),
            "post_processor": PrefixSuffixProcessing([cls], [sep], False, [sep, sep], {vocab[mask]: mask}),
            "added_tokens": _specials_entries([mask], lstrip=frozenset([mask]))}


def siglip(directory: Path, config: Config) -> Data:
    """SiglipTokenizer: spiece.model's own ids, its text handling (pre_tokenizers/siglip_text.py), "$A </s>"
    unless the ids end with </s>; decode runs sentencepiece between special tokens, a space before them."""
    segmenter = _backend_segmenter(directory, "spiece.model", config, "SiglipTokenizer")
    pieces = _pieces(segmenter)
    vocab = {piece: index for index, piece in enumerate(pieces)}
    names = dict(enumerate(pieces))
    specials = special_tokens(config, "SiglipTokenizer")
    unk_id = sentencepiece_source(segmenter).proto.trainer_spec.unk_id
    eos = role(config, "eos_token", "</s>")
    eos_id = vocab.get(eos, _listed_id(config, eos, len(vocab)))
    model = PieceMap(segmenter, vocab, unk_id, names, unk_text=role(config, "unk_token", "<unk>"))
    return {"model": model,
            "pre_tokenizer": SiglipText(model, bool(config.get("do_lower_case", True)), specials),
            "decoder": _cleaned_up(decoders.RewrittenText(decoders.SpecialTokenRuns(_sentencepiece_decode(segmenter),
                                                                                    specials), "(?!)", "", True),
                                   bool(config.get("clean_up_tokenization_spaces", False))),
            "post_processor": ByT5Processing(eos, eos_id, {eos_id: eos})}


def _listed_id(config: Config, token: str, default: int) -> int:
    """The id the config's added_tokens_decoder gives a token, else `default`."""
    listed = config.get("added_tokens_decoder") or {}
    return next((int(key) for key, entry in listed.items() if isinstance(entry, dict) and entry.get("content") == token),
                default)


def _dict_words(path: Path) -> list[str]:
    """The first field of each line of a fairseq dict.txt (transformers fails on an empty line)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as error:
        raise FormatError(f"not UTF-8: {error}", path=str(path)) from None
    words = []
    for number, line in enumerate(lines, 1):
        fields = line.strip().split()
        if not fields:
            raise FormatError(f"line {number} is empty (transformers fails on it)", path=str(path))
        words.append(fields[0])
    return words


def _backend_segmenter(directory: Path, file_name: str, config: Config, name: str) -> Any:
    """The .model a SentencePieceBackend class runs: with legacy false, without its dummy prefix (the class then
    encodes a text starting with a space after its unk token: PieceMap's unk_text). Warns about the options
    hfcompat does not follow (sp_model_kwargs)."""
    path = _file(directory, file_name)
    for rule in classes.python_sentencepiece_rules({key: config[key] for key in config if key != "legacy"}):
        warnings.warn(f"{directory}: transformers' {name} {rule}; hfcompat does not", UserWarning, stacklevel=3)
    if config.get("legacy", True) is not False:
        return read_sentencepiece(path)
    proto = parse_model(path.read_bytes())
    proto.normalizer_spec.add_dummy_prefix = False
    return tokenizer_from_proto(proto)


def _legacy_unk(config: Config) -> str | None:
    """The unk token's text when a SentencePieceBackend class encodes a leading space after it (legacy false)."""
    return role(config, "unk_token", "<unk>") if config.get("legacy", True) is False else None


CLASSES = {
    "M2M100Tokenizer": m2m100,
    "Speech2TextTokenizer": speech2text,
    "MarianTokenizer": marian,
    "PLBartTokenizer": plbart,
    "BartphoTokenizer": bartpho,
    "SiglipTokenizer": siglip,
}
