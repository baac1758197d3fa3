"""sentencepiece's `sentencepiece_pb2`: the SentencePieceText messages (hfcompat's own schema)."""

from ...formats.sentencepiece.schema import NBestSentencePieceText, SentencePieceText

__all__ = ["NBestSentencePieceText", "SentencePieceText"]
