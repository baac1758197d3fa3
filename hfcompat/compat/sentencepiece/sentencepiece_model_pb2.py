"""sentencepiece's `sentencepiece_model_pb2`: the ModelProto messages (hfcompat's own schema)."""

from ...formats.sentencepiece.schema import ModelProto, NormalizerSpec, SelfTestData, TrainerSpec

__all__ = ["ModelProto", "NormalizerSpec", "SelfTestData", "TrainerSpec"]
