"""ChineseWordSegmentation: a pre-tokenizer that cuts each segment into the words of a Segmenter.

tokenizer.json has no such component, so a plain tokenizer.json refuses it. The remote-code
directory of the transformers tokenizer class (save_pretrained(..., remote_code=True)) holds it
as an extension entry of hfcompat_tokenizer.json, with its data in files beside it:

    {"type": "ChineseWordSegmentation", "method": "dag", "hmm": true | false | "<file>",
     "keep_whitespace": false, "dictionary": "<file>", "total": ..., "deleted": [...], "blocks": "jieba-rs"}

`dictionary` is in jieba's format (Dictionary.load reads it); `hmm` true is jieba's model (jieba
must be installed where it loads), a file name a JSON HMM (HMM.to_dict). `total` and `deleted`
appear only when the file alone would not restore them (user words re-added, words deleted), `blocks`
only when not "jieba" (Segmenter's Han runs);
method "bigram" adds "bigram": "<file>" (BigramModel.to_dict as JSON).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from .. import pre_tokenizers
from ..errors import FormatError, UnsupportedConversion
from ..pipeline.normalized import NormalizedString, PreTokenizedString
from ..pre_tokenizers import PreTokenizer
from .bigram import BigramModel
from .dictionary import Dictionary
from .hmm import HMM
from .segmenter import Segmenter

DICTIONARY_FILE = "segmentation_dictionary.txt"
HMM_FILE = "segmentation_hmm.json"
BIGRAM_FILE = "segmentation_bigram.json"


@dataclass
class SideFiles:
    """The files an extension entry names, beside hfcompat_tokenizer.json.

    Writing collects name -> text in `written` (the caller writes them, after everything
    serialized); reading resolves names in `directory`. `prefix` starts every written name.
    """

    directory: Path | None = None
    prefix: str = ""
    written: dict[str, str] = field(default_factory=dict)

    def add(self, name: str, text: str) -> str:
        """Keep `text` under a free name derived from `name` (one per component); returns it."""
        stem, dot, suffix = name.partition(".")
        chosen, count = self.prefix + name, 1
        while chosen in self.written:
            count += 1
            chosen = f"{self.prefix}{stem}_{count}{dot}{suffix}"
        self.written[chosen] = text
        return chosen

    def path(self, name: Any, field_name: str) -> Path:
        """The existing file an entry names, else a FormatError naming the field."""
        if not isinstance(name, str) or not name or Path(name).name != name:
            raise FormatError(f"expected a file name beside the tokenizer file, got {name!r}", field=field_name)
        path = (self.directory or Path(".")) / name
        if not path.is_file():
            raise FormatError(f"the file {name!r} this entry names is missing", path=str(path), field=field_name)
        return path


@dataclass
class ChineseWordSegmentation(PreTokenizer):
    """Split every segment into words (whitespace words dropped unless `keep_whitespace`).

    tokenizer.json has no such component, so `to_dict` refuses: save the tokenizer
    with the transformers tokenizer class instead (save_pretrained(dir, remote_code=True)).
    """

    segmenter: Segmenter = field(default_factory=Segmenter)
    keep_whitespace: bool = False
    TYPE: ClassVar[str] = "ChineseWordSegmentation"

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Cut every untokenized split into its words."""
        pts.split(lambda _, ns: self._words(ns))

    def _words(self, ns: NormalizedString) -> list[NormalizedString]:
        """The slices of one segment, one per word."""
        pieces = []
        start = 0
        for word in self.segmenter.cut(ns.normalized):
            end = start + len(word)
            if self.keep_whitespace or not word.isspace():
                pieces.append(ns.slice(start, end))
            start = end
        return pieces

    def to_dict(self) -> dict[str, Any]:
        """Refuse: tokenizer.json cannot hold a dictionary segmenter."""
        raise UnsupportedConversion(
            "pre-tokenizer ChineseWordSegmentation cannot be written to tokenizer.json: the format has no "
            "word-segmentation component (its dictionary and HMM would be lost); save it with "
            "the transformers tokenizer class (save_pretrained(dir, remote_code=True)) instead")

    def to_extension_dict(self, files: SideFiles) -> dict[str, Any]:
        """The entry of hfcompat_tokenizer.json; the dictionary (and a non-jieba HMM) go to `files`."""
        segmenter = self.segmenter
        dictionary = segmenter.dictionary
        entry: dict[str, Any] = {"type": self.TYPE, "method": segmenter.method, "hmm": _hmm_value(segmenter.hmm, files),
                                 "keep_whitespace": self.keep_whitespace,
                                 "dictionary": files.add(DICTIONARY_FILE, dictionary.to_text())}
        if dictionary.total != sum(dictionary.freq.values()):
            entry["total"] = dictionary.total
        if dictionary.force_split:
            entry["deleted"] = sorted(dictionary.force_split)
        if segmenter.blocks != "jieba":
            entry["blocks"] = segmenter.blocks
        if segmenter.bigram is not None:
            entry["bigram"] = files.add(BIGRAM_FILE, json.dumps(segmenter.bigram.to_dict(), ensure_ascii=False))
        return entry

    @classmethod
    def from_extension_dict(cls, data: dict[str, Any], files: SideFiles) -> "ChineseWordSegmentation":
        """Rebuild the pre-tokenizer of `to_extension_dict`, reading the files it names."""
        dictionary = Dictionary.load(files.path(data.get("dictionary"), "dictionary"))
        total = data.get("total", dictionary.total)
        deleted = data.get("deleted", [])
        if not isinstance(total, int) or isinstance(total, bool) or total < 0:
            raise FormatError(f"expected a word count, got {total!r}", field="total")
        if not isinstance(deleted, list) or not all(isinstance(word, str) and word for word in deleted):
            raise FormatError("expected a list of words", field="deleted")
        for word in deleted:
            dictionary.add_word(word, 0)
        dictionary.total = total
        keep_whitespace = data.get("keep_whitespace", False)
        if not isinstance(keep_whitespace, bool):
            raise FormatError(f"expected true or false, got {keep_whitespace!r}", field="keep_whitespace")
        method = data.get("method", "dag")
        hmm = _read_hmm(data.get("hmm", False), files)
        bigram = _read_model(BigramModel, files, data["bigram"], "bigram") if "bigram" in data else None
        try:
            segmenter = Segmenter(dictionary, method=method, hmm=hmm, bigram=bigram,
                                  blocks=data.get("blocks", "jieba"))
        except ValueError as error:
            raise FormatError(str(error), field="blocks" if "blocks" in str(error) else "method") from None
        return cls(segmenter, keep_whitespace=keep_whitespace)


def _hmm_value(hmm: HMM | None, files: SideFiles) -> bool | str:
    """The entry's "hmm": false, true for jieba's model, or the name of the file holding it."""
    if hmm is None:
        return False
    if _is_jieba_model(hmm):
        return True
    return files.add(HMM_FILE, json.dumps(hmm.to_dict(), ensure_ascii=False))


def _is_jieba_model(hmm: HMM) -> bool:
    """Whether `hmm` holds jieba's parameters (False when jieba is not installed)."""
    try:
        return hmm == HMM.from_jieba()
    except ModuleNotFoundError:
        return False


def _read_hmm(value: Any, files: SideFiles) -> bool | HMM:
    """The Segmenter's `hmm` argument for the entry's "hmm"."""
    if isinstance(value, bool):
        return value
    return _read_model(HMM, files, value, "hmm")


def _read_model(model: Any, files: SideFiles, name: Any, field_name: str) -> Any:
    """`model.from_dict` of the JSON file an entry's field names, errors naming that file."""
    path = files.path(name, field_name)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FormatError(f"not valid JSON: {error}", path=str(path)) from None
    try:
        return model.from_dict(data)
    except FormatError as error:
        raise error.at(path=str(path)) from None


def pre_tokenizer_to_extension_dict(pre_tokenizer: PreTokenizer, files: SideFiles) -> dict[str, Any]:
    """A pre-tokenizer's entry where extensions are allowed (also inside a Sequence)."""
    if isinstance(pre_tokenizer, ChineseWordSegmentation):
        return pre_tokenizer.to_extension_dict(files)
    if isinstance(pre_tokenizer, pre_tokenizers.Sequence):
        return {"type": pre_tokenizer.TYPE,
                "pretokenizers": [pre_tokenizer_to_extension_dict(p, files) for p in pre_tokenizer.pretokenizers]}
    return pre_tokenizer.to_dict()


def pre_tokenizer_from_extension_dict(data: Any, files: SideFiles) -> PreTokenizer:
    """Read a pre-tokenizer entry where extensions are allowed (also inside a Sequence)."""
    kind = data.get("type") if isinstance(data, dict) else None
    if kind == ChineseWordSegmentation.TYPE:
        return ChineseWordSegmentation.from_extension_dict(data, files)
    if kind == pre_tokenizers.Sequence.TYPE and isinstance(data.get("pretokenizers"), list):
        return pre_tokenizers.Sequence([_item(entry, i, files) for i, entry in enumerate(data["pretokenizers"])])
    return pre_tokenizers.from_dict(data)


def _item(entry: Any, index: int, files: SideFiles) -> PreTokenizer:
    """One member of a Sequence, errors naming its position."""
    try:
        return pre_tokenizer_from_extension_dict(entry, files)
    except FormatError as error:
        raise error.at(field=f"pretokenizers[{index}]") from None
