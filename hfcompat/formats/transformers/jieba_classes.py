"""transformers' Chinese classes that need rjieba to load: CpmTokenizer, RoFormerTokenizer (and CpmAntTokenizer,
not built), from the files they read as AutoTokenizer runs them.

CpmTokenizer (transformers 5.24 imports rjieba and never calls it) runs XLNet's preprocessing and digit-comma
split around sentencepiece on spiece.model (models/xlnet_pieces.py), adds "$A <sep> <cls>" ("$A <sep> $B <sep>
<cls>", type ids 0, 1 and 2), and decodes with every space removed and ▂/▃ as space/newline
(decoders/cpm_text.py). Nothing here calls transformers or rjieba; tests/pretrained/test_jieba_classes.py holds
each class to AutoTokenizer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ...decoders.cpm_text import CpmText
from ...models.xlnet_pieces import XLNetPieces
from ..sentencepiece.read import read_sentencepiece
from . import classes

Config = dict[str, Any]
Data = dict[str, Any]
CPM_MODEL = "spiece.model"


def cpm(directory: Path, config: Config) -> Data:
    """CpmTokenizer: XLNet's Python preprocessing around sentencepiece, XLNet's template, CPM's decode."""
    sentencepiece = read_sentencepiece(directory / CPM_MODEL)
    unk_id = sentencepiece.sentencepiece_source.proto.trainer_spec.unk_id
    model = XLNetPieces(sentencepiece, unk_id, lowercase=bool(config.get("do_lower_case", False)),
                        remove_space=bool(config.get("remove_space", True)),
                        keep_accents=bool(config.get("keep_accents", False)))
    cls, sep = classes.role(config, "cls_token", "<cls>"), classes.role(config, "sep_token", "<sep>")
    post_processor = classes.template(["$A:0", f"{sep}:0", f"{cls}:2"],
                                      ["$A:0", f"{sep}:0", "$B:1", f"{sep}:1", f"{cls}:2"], [cls, sep], {"model": {}})
    return {"model": model, "decoder": CpmText(), "post_processor": post_processor}


CLASSES: dict[str, Callable[[Path, Config], Data]] = {"CpmTokenizer": cpm}
