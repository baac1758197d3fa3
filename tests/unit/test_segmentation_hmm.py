"""The B/M/E/S HMM: training by counting, Viterbi decoding, jieba's model and cut rules."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hfcompat.segmentation import HMM
from hfcompat.segmentation.hmm import MIN_LOG, word_tags

TRAIN = ["我们 相信 世界", "世界 很 美好", "我们 很 好"]


def test_word_tags() -> None:
    """One character is S; longer words are B M* E."""
    assert [word_tags(w) for w in ("我", "我们", "人工智能")] == ["S", "BE", "BMME"]


def test_train_counts_starts_transitions_and_emissions() -> None:
    """Probabilities are relative frequencies of the tags of the training words."""
    model = HMM.train(TRAIN)
    assert model.start == {"B": 0.0}
    assert model.trans["B"] == {"E": 0.0}
    assert model.trans["E"] == {"B": math.log(2 / 4), "S": math.log(2 / 4)}
    assert model.trans["S"] == {"B": math.log(1 / 2), "S": math.log(1 / 2)}
    assert model.emit["S"] == {"很": math.log(2 / 3), "好": math.log(1 / 3)}


def test_trained_model_recovers_its_training_words() -> None:
    """Viterbi on the training sentences gives back their segmentation."""
    model = HMM.train(TRAIN)
    assert model.cut("我们很美好") == ["我们", "很", "美好"]
    assert model.tag("世界很好") == list("BESS")


def test_unseen_characters_fall_back_to_the_minimum() -> None:
    """Unknown characters emit with MIN_LOG; decoding still ends in E or S."""
    model = HMM.train(TRAIN)
    assert model.emit["B"].get("猫", MIN_LOG) == MIN_LOG
    assert model.tag("猫狗")[-1] in "ES"


def test_non_han_runs_split_into_alphanumeric_pieces() -> None:
    """Outside Han: letter/digit runs with a decimal part and %, the rest kept together."""
    model = HMM.train(TRAIN)
    assert model.cut("abc3.5%+#x") == ["abc3.5%", "+#", "x"]


def test_force_split_words_come_out_as_characters() -> None:
    """A deleted word found by the HMM is split into its characters."""
    model = HMM.train(TRAIN)
    assert model.cut("我们很好", force_split={"我们"}) == ["我", "们", "很", "好"]


jieba = pytest.importorskip("jieba")


@given(st.text(st.sampled_from("的一是了我不人在他有这个上们来到时大地为子中你说生国年着就那和要她出也得里后自以会家可下而过天去能对小多然于心学么之都好看起发当没成只如事把还用第样道想作种开美总从无情己面最女但现前些所同日手又行意动方期它头经长儿回位分爱老因很给名法间斯知世什两次使身者被高已亲其进此话常与活正感AB1.%+ "), max_size=30))
def test_jieba_model_cuts_as_jieba_finalseg(text: str) -> None:
    """HMM.from_jieba().cut equals jieba.finalseg.cut on random strings."""
    from jieba import finalseg

    assert HMM.from_jieba().cut(text) == list(finalseg.cut(text))


def test_to_dict_round_trips_through_json() -> None:
    """The saved form (JSON floats) rebuilds the same model, which cuts the same words."""
    import json
    model = HMM.train(TRAIN)
    again = HMM.from_dict(json.loads(json.dumps(model.to_dict())))
    assert again == model
    assert again.cut("我们很美好相信") == model.cut("我们很美好相信")


@pytest.mark.parametrize("data, field", [
    ([], None), ({"start": [], "trans": {}, "emit": {}}, "start"),
    ({"start": {}, "trans": {"B": {"E": "x"}}, "emit": {}}, "trans.B"),
    ({"start": {}, "trans": {}, "emit": {"S": {"我": True}}}, "emit.S"),
])
def test_from_dict_names_the_bad_table(data: object, field: str | None) -> None:
    """A malformed model is a FormatError naming its table."""
    from hfcompat.errors import FormatError
    with pytest.raises(FormatError) as caught:
        HMM.from_dict(data)
    assert caught.value.field == field
