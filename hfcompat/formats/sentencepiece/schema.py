"""The SentencePiece `ModelProto` schema, declared through protobuf's descriptor API.

Declaring the messages here (instead of importing the `sentencepiece_model_pb2` module that the
`sentencepiece` package ships) keeps `.model` I/O free of the sentencepiece binary. The field
numbers, types and defaults are those of sentencepiece 0.2.3's `sentencepiece_model.proto`
(proto2); fields this schema does not know survive a load and save as protobuf unknown fields.
The messages live in a private descriptor pool, so they never clash with sentencepiece's own
module when both are imported.
"""

from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool

try:  # protobuf >= 4.21
    from google.protobuf.message_factory import GetMessageClass as _message_class
except ImportError:  # pragma: no cover - older protobuf
    from google.protobuf.message_factory import MessageFactory

    def _message_class(descriptor):  # type: ignore[no-redef]
        """The message class of `descriptor` (protobuf before GetMessageClass)."""
        return MessageFactory(descriptor.file.pool).GetPrototype(descriptor)

PACKAGE = "sentencepiece"
F = descriptor_pb2.FieldDescriptorProto

# Piece types (ModelProto.SentencePiece.Type).
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
PIECE_TYPES = {"NORMAL": NORMAL, "UNKNOWN": UNKNOWN, "CONTROL": CONTROL,
               "USER_DEFINED": USER_DEFINED, "BYTE": BYTE, "UNUSED": UNUSED}
# Model types (TrainerSpec.ModelType).
UNIGRAM, BPE, WORD, CHAR = 1, 2, 3, 4
MODEL_TYPES = {"UNIGRAM": UNIGRAM, "BPE": BPE, "WORD": WORD, "CHAR": CHAR}

# (name, number, type, label, default or None, enum/message type name or None)
_OPT, _REP = F.LABEL_OPTIONAL, F.LABEL_REPEATED
_STR, _BYTES, _BOOL, _I32, _U64, _FLOAT = (F.TYPE_STRING, F.TYPE_BYTES, F.TYPE_BOOL, F.TYPE_INT32,
                                           F.TYPE_UINT64, F.TYPE_FLOAT)
_ENUM, _MSG = F.TYPE_ENUM, F.TYPE_MESSAGE

TRAINER_SPEC_FIELDS = (
    ("input", 1, _STR, _REP, None, None),
    ("input_format", 7, _STR, _OPT, None, None),
    ("model_prefix", 2, _STR, _OPT, None, None),
    ("model_type", 3, _ENUM, _OPT, "UNIGRAM", ".sentencepiece.TrainerSpec.ModelType"),
    ("vocab_size", 4, _I32, _OPT, "8000", None),
    ("accept_language", 5, _STR, _REP, None, None),
    ("self_test_sample_size", 6, _I32, _OPT, "0", None),
    ("enable_differential_privacy", 50, _BOOL, _OPT, "false", None),
    ("differential_privacy_noise_level", 51, _FLOAT, _OPT, "0", None),
    ("differential_privacy_clipping_threshold", 52, _U64, _OPT, "0", None),
    ("character_coverage", 10, _FLOAT, _OPT, "0.9995", None),
    ("input_sentence_size", 11, _U64, _OPT, "0", None),
    ("shuffle_input_sentence", 19, _BOOL, _OPT, "true", None),
    ("mining_sentence_size", 12, _I32, _OPT, None, None),
    ("training_sentence_size", 13, _I32, _OPT, None, None),
    ("seed_sentencepiece_size", 14, _I32, _OPT, "1000000", None),
    ("shrinking_factor", 15, _FLOAT, _OPT, "0.75", None),
    ("max_sentence_length", 18, _I32, _OPT, "4192", None),
    ("num_threads", 16, _I32, _OPT, "16", None),
    ("num_sub_iterations", 17, _I32, _OPT, "2", None),
    ("max_sentencepiece_length", 20, _I32, _OPT, "16", None),
    ("split_by_unicode_script", 21, _BOOL, _OPT, "true", None),
    ("split_by_number", 23, _BOOL, _OPT, "true", None),
    ("split_by_whitespace", 22, _BOOL, _OPT, "true", None),
    ("treat_whitespace_as_suffix", 24, _BOOL, _OPT, "false", None),
    ("allow_whitespace_only_pieces", 26, _BOOL, _OPT, "false", None),
    ("split_digits", 25, _BOOL, _OPT, "false", None),
    ("pretokenization_delimiter", 53, _STR, _OPT, "", None),
    ("control_symbols", 30, _STR, _REP, None, None),
    ("user_defined_symbols", 31, _STR, _REP, None, None),
    ("required_chars", 36, _STR, _OPT, None, None),
    ("byte_fallback", 35, _BOOL, _OPT, "false", None),
    ("vocabulary_output_piece_score", 32, _BOOL, _OPT, "true", None),
    ("hard_vocab_limit", 33, _BOOL, _OPT, "true", None),
    ("use_all_vocab", 34, _BOOL, _OPT, "false", None),
    ("unk_id", 40, _I32, _OPT, "0", None),
    ("bos_id", 41, _I32, _OPT, "1", None),
    ("eos_id", 42, _I32, _OPT, "2", None),
    ("pad_id", 43, _I32, _OPT, "-1", None),
    ("unk_piece", 45, _STR, _OPT, "<unk>", None),
    ("bos_piece", 46, _STR, _OPT, "<s>", None),
    ("eos_piece", 47, _STR, _OPT, "</s>", None),
    ("pad_piece", 48, _STR, _OPT, "<pad>", None),
    ("unk_surface", 44, _STR, _OPT, " \u2047 ", None),
    ("train_extremely_large_corpus", 49, _BOOL, _OPT, "false", None),
    ("seed_sentencepieces_file", 54, _STR, _OPT, "", None),
    ("auto_character_coverage", 55, _BOOL, _OPT, "false", None),
)
NORMALIZER_SPEC_FIELDS = (
    ("name", 1, _STR, _OPT, None, None),
    ("precompiled_charsmap", 2, _BYTES, _OPT, None, None),
    ("add_dummy_prefix", 3, _BOOL, _OPT, "true", None),
    ("remove_extra_whitespaces", 4, _BOOL, _OPT, "true", None),
    ("escape_whitespaces", 5, _BOOL, _OPT, "true", None),
    ("normalization_rule_tsv", 6, _STR, _OPT, None, None),
)
SAMPLE_FIELDS = (
    ("input", 1, _STR, _OPT, None, None),
    ("expected", 2, _STR, _OPT, None, None),
)
SELF_TEST_DATA_FIELDS = (
    ("samples", 1, _MSG, _REP, None, ".sentencepiece.SelfTestData.Sample"),
)
PIECE_FIELDS = (
    ("piece", 1, _STR, _OPT, None, None),
    ("score", 2, _FLOAT, _OPT, None, None),
    ("type", 3, _ENUM, _OPT, "NORMAL", ".sentencepiece.ModelProto.SentencePiece.Type"),
)
MODEL_PROTO_FIELDS = (
    ("pieces", 1, _MSG, _REP, None, ".sentencepiece.ModelProto.SentencePiece"),
    ("trainer_spec", 2, _MSG, _OPT, None, ".sentencepiece.TrainerSpec"),
    ("normalizer_spec", 3, _MSG, _OPT, None, ".sentencepiece.NormalizerSpec"),
    ("self_test_data", 4, _MSG, _OPT, None, ".sentencepiece.SelfTestData"),
    ("denormalizer_spec", 5, _MSG, _OPT, None, ".sentencepiece.NormalizerSpec"),
)


TEXT_PIECE_FIELDS = (
    ("piece", 1, _STR, _OPT, None, None),
    ("id", 2, F.TYPE_UINT32, _OPT, None, None),
    ("surface", 3, _STR, _OPT, None, None),
    ("begin", 4, F.TYPE_UINT32, _OPT, None, None),
    ("end", 5, F.TYPE_UINT32, _OPT, None, None),
)
TEXT_FIELDS = (
    ("text", 1, _STR, _OPT, None, None),
    ("pieces", 2, _MSG, _REP, None, ".sentencepiece.SentencePieceText.SentencePiece"),
    ("score", 3, _FLOAT, _OPT, None, None),
)
# The same messages with bytes where sentencepiece.proto has strings (the wire format is the same):
# sentencepiece writes an input that is not UTF-8 into `text` and `surface` as it is.
RAW_TEXT_PIECE_FIELDS = tuple((name, number, _BYTES if kind == _STR else kind, *rest)
                              for name, number, kind, *rest in TEXT_PIECE_FIELDS)
RAW_TEXT_FIELDS = (
    ("text", 1, _BYTES, _OPT, None, None),
    ("pieces", 2, _MSG, _REP, None, ".sentencepiece.raw.SentencePieceText.SentencePiece"),
    ("score", 3, _FLOAT, _OPT, None, None),
)
NBEST_FIELDS = (
    ("nbests", 1, _MSG, _REP, None, ".sentencepiece.SentencePieceText"),
)


def _message(name: str, fields: tuple, extensible: bool = True) -> descriptor_pb2.DescriptorProto:
    """A message declaration with `fields` (and sentencepiece's extension range 200..max)."""
    message = descriptor_pb2.DescriptorProto(name=name)
    for field_name, number, kind, label, default, type_name in fields:
        field = message.field.add(name=field_name, number=number, type=kind, label=label)
        if default is not None:
            field.default_value = default
        if type_name is not None:
            field.type_name = type_name
    if extensible:
        message.extension_range.add(start=200, end=536870912)
    return message


def _enum(name: str, values: dict[str, int]) -> descriptor_pb2.EnumDescriptorProto:
    """An enum declaration."""
    enum = descriptor_pb2.EnumDescriptorProto(name=name)
    for value_name, number in values.items():
        enum.value.add(name=value_name, number=number)
    return enum


def _file() -> descriptor_pb2.FileDescriptorProto:
    """The whole schema as one file descriptor."""
    schema = descriptor_pb2.FileDescriptorProto(name="hfcompat/sentencepiece_model.proto",
                                                package=PACKAGE, syntax="proto2")
    trainer = _message("TrainerSpec", TRAINER_SPEC_FIELDS)
    trainer.enum_type.append(_enum("ModelType", MODEL_TYPES))
    self_test = _message("SelfTestData", SELF_TEST_DATA_FIELDS)
    self_test.nested_type.append(_message("Sample", SAMPLE_FIELDS, extensible=False))
    piece = _message("SentencePiece", PIECE_FIELDS)
    piece.enum_type.append(_enum("Type", PIECE_TYPES))
    model = _message("ModelProto", MODEL_PROTO_FIELDS)
    model.nested_type.append(piece)
    schema.message_type.extend([trainer, _message("NormalizerSpec", NORMALIZER_SPEC_FIELDS),
                                self_test, model])
    return schema


def _text_file() -> descriptor_pb2.FileDescriptorProto:
    """sentencepiece.proto: what an encoding is as a message (SentencePieceText), and n of them."""
    schema = descriptor_pb2.FileDescriptorProto(name="hfcompat/sentencepiece.proto", package=PACKAGE,
                                                syntax="proto2")
    text = _message("SentencePieceText", TEXT_FIELDS)
    text.nested_type.append(_message("SentencePiece", TEXT_PIECE_FIELDS))
    schema.message_type.extend([text, _message("NBestSentencePieceText", NBEST_FIELDS, extensible=False)])
    return schema


def _raw_text_file() -> descriptor_pb2.FileDescriptorProto:
    """SentencePieceText with bytes fields, to write texts that are not UTF-8 as sentencepiece does."""
    schema = descriptor_pb2.FileDescriptorProto(name="hfcompat/sentencepiece_raw.proto", package=f"{PACKAGE}.raw",
                                                syntax="proto2")
    text = _message("SentencePieceText", RAW_TEXT_FIELDS)
    text.nested_type.append(_message("SentencePiece", RAW_TEXT_PIECE_FIELDS))
    schema.message_type.append(text)
    return schema


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_file())
_POOL.Add(_text_file())
_POOL.Add(_raw_text_file())

ModelProto = _message_class(_POOL.FindMessageTypeByName(f"{PACKAGE}.ModelProto"))
TrainerSpec = _message_class(_POOL.FindMessageTypeByName(f"{PACKAGE}.TrainerSpec"))
NormalizerSpec = _message_class(_POOL.FindMessageTypeByName(f"{PACKAGE}.NormalizerSpec"))
SelfTestData = _message_class(_POOL.FindMessageTypeByName(f"{PACKAGE}.SelfTestData"))
SentencePieceText = _message_class(_POOL.FindMessageTypeByName(f"{PACKAGE}.SentencePieceText"))
NBestSentencePieceText = _message_class(_POOL.FindMessageTypeByName(f"{PACKAGE}.NBestSentencePieceText"))
RawSentencePieceText = _message_class(_POOL.FindMessageTypeByName(f"{PACKAGE}.raw.SentencePieceText"))
