"""`SentencePieceProcessor` with sentencepiece 0.2.3's Python interface, running on hfcompat.

Every `encode` and `decode` form (ids, pieces, bytes, protos, offset mappings, numpy arrays,
batches, n-best, sampling) goes through one `Engine`, which loads the .model with hfcompat's
reader and lays pieces out as sentencepiece does; this module only checks and shapes the
arguments and the results as sentencepiece's wrapper does.
"""

from __future__ import annotations

import array
import ctypes
from typing import Any, Callable, Sequence

from ...formats.sentencepiece import schema
from .engine import Engine, Piece, Segmented, Settings, char_offsets

RETURN_TYPES = (int, str, bytes, "proto", "serialized_proto", "numpy", "offset_mapping")
EXTRA_OPTIONS_IN_PROTO = "UNIMPLEMENTED: add_bos, add_eos, reverse, and emit_unk_piece is not supported in proto API"
SAMPLING_NEEDS = ('When enable_sampling is True, We must specify "nbest_size > 1" or "nbest_size = -1", and "alpha".')
INPUT_TYPE = "Input must be str or bytes"
ID_INPUT = "Input must be an integer buffer, list of integers, or a sequence of integers."


def resolve_return_type(return_type: Any, out_type: Any, default: Any) -> Any:
    """The return type asked for (out_type is its older name), checked as sentencepiece checks it."""
    if out_type is not None:
        if return_type is not None:
            raise ValueError("Cannot specify both out_type and return_type. Use return_type instead.")
        return_type = out_type
    if return_type is None:
        return_type = default
    if return_type == "immutable_proto":
        raise ValueError("immutable_proto is deprecated and no longer supported. Use return_type='proto' instead.")
    if return_type not in RETURN_TYPES:
        raise ValueError(f"Invalid return_type: {return_type}. Must be one of {RETURN_TYPES}")
    return return_type


def _as_bytes(text: Any) -> bytes:
    """A text input as UTF-8 (TypeError for anything but str and bytes)."""
    if isinstance(text, str):
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no UTF-8 for sentencepiece's C++ string
            raise RuntimeError("Unable to cast Python instance of type <class 'str'> to C++ type") from None
    if isinstance(text, (bytes, bytearray)):
        return bytes(text)
    raise TypeError(INPUT_TYPE)


def _is_sequence(value: Any) -> bool:
    """A list-like of items (not a str or bytes)."""
    return hasattr(value, "__len__") and not isinstance(value, (str, bytes))


def _numpy() -> Any:
    """numpy, imported when return_type='numpy' asks for it."""
    import numpy  # an optional dependency, as in sentencepiece

    return numpy


class VectorBuffer(bytearray):
    """The int32 ids a numpy result is a read-only view of (no copy), as sentencepiece's buffer."""

    def data_address(self) -> int:
        """The address of the first id."""
        return ctypes.addressof(ctypes.c_char.from_buffer(self)) if self else 0


def _frozen_array(ids: list[int]) -> Any:
    """A read-only int32 numpy array viewing a VectorBuffer of the ids."""
    numpy = _numpy()
    buffer = VectorBuffer(array.array("i", ids).tobytes())
    return numpy.frombuffer(memoryview(buffer).toreadonly(), dtype=numpy.int32)


def decode_items(engine: Engine, items: list) -> Segmented:
    """One sequence of ids or of pieces (str or bytes) decoded."""
    if items and isinstance(items[0], (str, bytes)):
        names = []
        for item in items:
            if not isinstance(item, (str, bytes)) or not _is_utf8_text(item):
                raise TypeError("List elements must be str or bytes")
            names.append(item.decode("utf-8", "replace") if isinstance(item, bytes) else item)
        return engine.decode_pieces(names)
    ids = []
    for item in items:
        if hasattr(item, "dtype") and item.dtype.kind not in "iu":
            raise TypeError(ID_INPUT)
        if isinstance(item, bool) or not hasattr(item, "__index__"):
            raise TypeError(ID_INPUT)
        ids.append(int(item))
    return engine.decode_ids(ids)


def _read_once(batch: Any) -> list:
    """The items of a batch, its length read once (a __len__ may change between calls)."""
    size = len(batch)
    return [list(batch[index]) for index in range(size)]


class LoadedModel(Engine):
    """The engine, with the batch decodes sentencepiece's Python layer calls on its processor."""

    def _DecodePiecesBatch(self, batch: Any, num_threads: int, thread_pool: Any) -> list[str]:
        return [decode_items(self, items).text for items in _read_once(batch)]

    def _DecodePiecesAsBytesBatch(self, batch: Any, num_threads: int, thread_pool: Any) -> list[bytes]:
        return [decode_items(self, items).text.encode("utf-8") for items in _read_once(batch)]

    def _DecodePiecesAsSerializedProtoBatch(self, batch: Any, num_threads: int, thread_pool: Any) -> list[bytes]:
        return [decode_items(self, items).serialized() for items in _read_once(batch)]

    def _DecodeAsOffsetMappingBatch(self, batch: Any, num_threads: int, thread_pool: Any,
                                    return_bytes: bool) -> list[dict]:
        return [offset_mapping(decode_items(self, items), return_bytes, with_text=True) for items in _read_once(batch)]


class SentencePieceProcessor:
    """sentencepiece's SentencePieceProcessor: load a .model, encode, decode, look up pieces."""

    def __init__(self, model_file: Any = None, model_proto: Any = None, out_type: Any = None,
                 add_bos: bool = False, add_eos: bool = False, reverse: bool = False,
                 emit_unk_piece: bool = False, enable_sampling: bool = False, nbest_size: int = -1,
                 alpha: float = 0.1, num_threads: int = -1, return_type: Any = None):
        self._processor: Engine | None = None
        self._return_type = resolve_return_type(return_type, out_type, int)
        self._add_bos, self._add_eos, self._reverse = add_bos, add_eos, reverse
        self._emit_unk_piece, self._enable_sampling = emit_unk_piece, enable_sampling
        self._nbest_size, self._alpha, self._num_threads = nbest_size, alpha, num_threads
        if model_file or model_proto:
            self.Load(model_file=model_file, model_proto=model_proto)

    # ----- loading --------------------------------------------------------------------------

    @classmethod
    def from_file(cls, model_file: Any, **options: Any) -> "SentencePieceProcessor":
        """A processor with `model_file` loaded."""
        return cls._loaded_with("from_file", options)._loaded_from(model_file, file=True)

    @classmethod
    def from_proto(cls, model_proto: Any, **options: Any) -> "SentencePieceProcessor":
        """A processor with a serialized model loaded."""
        return cls._loaded_with("from_proto", options)._loaded_from(model_proto, file=False)

    @classmethod
    def _loaded_with(cls, factory: str, options: dict) -> "SentencePieceProcessor":
        """A processor with these options and no model yet (the model is the factory's argument)."""
        if "model_file" in options or "model_proto" in options:
            raise ValueError(f"model_file and model_proto cannot be passed via kwargs when using {factory} classmethod.")
        return cls(**options)

    def _loaded_from(self, source: Any, file: bool) -> "SentencePieceProcessor":
        """This processor with a model loaded from a file or from bytes."""
        if file:
            self.LoadFromFile(source)
        else:
            self.LoadFromSerializedProto(source)
        return self

    def Load(self, model_file: Any = None, model_proto: Any = None) -> bool:
        """Load a model from a file or from serialized bytes (exactly one of them)."""
        if model_file and model_proto:
            raise ValueError("model_file and model_proto must be exclusive.")
        if model_proto:
            return self.LoadFromSerializedProto(model_proto)
        if model_file:
            return self.LoadFromFile(model_file)
        raise ValueError("Either model_file or model_proto must be specified.")

    def LoadFromFile(self, filename: Any) -> bool:
        """Load a .model file (OSError when it cannot be read, as sentencepiece raises)."""
        try:
            with open(filename, "rb") as file:
                data = file.read()
        except OSError as error:
            raise OSError(f"Not found: \"{filename}\": {error.strerror}") from None
        return self.LoadFromSerializedProto(data)

    def LoadFromSerializedProto(self, serialized: Any) -> bool:
        """Load a model from its serialized ModelProto (or a ModelProto message)."""
        if hasattr(serialized, "SerializeToString"):
            serialized = serialized.SerializeToString()
        try:
            self._processor = LoadedModel(bytes(serialized))
        except Exception as error:  # sentencepiece reports a bad model as RuntimeError
            raise RuntimeError(f"Internal: could not parse ModelProto: {error}") from None
        return True

    @property
    def _engine(self) -> Engine:
        """The loaded model (RuntimeError before one is loaded)."""
        if self._processor is None:
            raise RuntimeError("Model is not initialized.")
        return self._processor

    # ----- encoding -------------------------------------------------------------------------

    def Encode(self, input: Any, add_bos: bool | None = None, add_eos: bool | None = None,
               reverse: bool | None = None, emit_unk_piece: bool | None = None,
               enable_sampling: bool | None = None, nbest_size: int | None = None,
               alpha: float | None = None, num_threads: int | None = None, thread_pool: Any = None,
               return_type: Any = None, out_type: Any = None, return_bytes: bool | None = None) -> Any:
        """Encode a text or a list of texts into ids, pieces, protos, offsets or numpy arrays."""
        return_type = resolve_return_type(return_type, out_type, self._return_type)
        if return_bytes is not None and return_type != "offset_mapping":
            raise ValueError("return_bytes is only supported when return_type='offset_mapping'")
        options = self._options(add_bos, add_eos, reverse, emit_unk_piece)
        sampling = self._sampling(enable_sampling, nbest_size, alpha)
        self._check_threads(num_threads)
        if isinstance(input, list):
            if return_type == "offset_mapping" and any(options):
                raise RuntimeError(EXTRA_OPTIONS_IN_PROTO)
            as_bytes = return_bytes
            if as_bytes is None:
                as_bytes = bool(input) and isinstance(input[0], bytes)
            return [self._encode_one(text, return_type, options, sampling, as_bytes) for text in input]
        as_bytes = isinstance(input, bytes) if return_bytes is None else return_bytes
        return self._encode_one(input, return_type, options, sampling, as_bytes)

    def _options(self, add_bos: Any, add_eos: Any, reverse: Any, emit_unk_piece: Any) -> tuple[bool, bool, bool, bool]:
        """(add_bos, add_eos, reverse, emit_unk_piece), the constructor's where not given."""
        return (self._add_bos if add_bos is None else bool(add_bos), self._add_eos if add_eos is None else bool(add_eos),
                self._reverse if reverse is None else bool(reverse),
                self._emit_unk_piece if emit_unk_piece is None else bool(emit_unk_piece))

    def _sampling(self, enable: Any, nbest_size: Any, alpha: Any) -> tuple[int, float] | None:
        """(nbest_size, alpha) when sampling, else None; ValueError for a sampling that cannot run."""
        enable = self._enable_sampling if enable is None else enable
        nbest_size = self._nbest_size if nbest_size is None else nbest_size
        alpha = self._alpha if alpha is None else alpha
        if enable is not True:
            return None
        if nbest_size is None or nbest_size in (0, 1) or alpha is None:
            raise ValueError(SAMPLING_NEEDS)
        return int(nbest_size), float(alpha)

    def _check_threads(self, num_threads: Any) -> None:
        """TypeError unless num_threads is an int (threads change no result here)."""
        if num_threads is None:
            num_threads = self._num_threads
        if num_threads is None or not isinstance(num_threads, int):
            raise TypeError("num_threads must be int")

    def _encode_one(self, text: Any, return_type: Any, options: tuple[bool, bool, bool, bool],
                    sampling: tuple[int, float] | None, as_bytes: bool) -> Any:
        """One text in the return type."""
        data = _as_bytes(text)
        if return_type in (int, "numpy") and sampling is None and isinstance(text, str):
            engine = self._engine  # the ids alone: hfcompat's own encode_ids, the same ids, faster
            ids = engine.tokenizer.encode_ids(text, add_special_tokens=False)
            pieces = self._with_options([Piece(engine.pieces[i], i) for i in ids], options)
            return [p.id for p in pieces] if return_type is int else _frozen_array([p.id for p in pieces])
        segmented = self._engine.encode(data, sampling)
        if return_type in ("proto", "serialized_proto", "offset_mapping") and any(options):
            raise RuntimeError(EXTRA_OPTIONS_IN_PROTO)
        if return_type == "proto":
            return segmented.message()
        if return_type == "serialized_proto":
            return segmented.serialized()
        if return_type == "offset_mapping":
            return offset_mapping(segmented, as_bytes, with_text=False)
        pieces = self._with_options(segmented.pieces, options)
        if return_type is int:
            return [p.id for p in pieces]
        if return_type == "numpy":
            return _frozen_array([p.id for p in pieces])
        if return_type is bytes:
            return [p.piece.encode("utf-8") for p in pieces]
        return [p.piece for p in pieces]

    def _with_options(self, pieces: list[Piece], options: tuple[bool, bool, bool, bool]) -> list[Piece]:
        """sentencepiece's extra options: emit_unk_piece, reverse, then bos and eos."""
        add_bos, add_eos, reverse, emit_unk = options
        engine = self._engine
        if emit_unk:
            pieces = [Piece(engine.pieces[p.id], p.id) if p.id == engine.unk_id else p for p in pieces]
        if reverse:
            pieces = pieces[::-1]
        for wanted, name, at_start in ((add_bos, "bos", True), (add_eos, "eos", False)):
            if not wanted:
                continue
            token_id = engine.special_id(name)
            if token_id < 0 or engine.types[token_id] != 3:
                raise ValueError(f"INVALID_ARGUMENT: {name.upper()} token is not defined as a control symbol in this model.")
            special = Piece(engine.pieces[token_id], token_id)
            pieces = [special, *pieces] if at_start else [*pieces, special]
        return pieces

    # ----- n-best and parallel encoding -------------------------------------------------------

    def NBestEncode(self, input: Any, add_bos: bool | None = None, add_eos: bool | None = None,
                    reverse: bool | None = None, emit_unk_piece: bool | None = None,
                    nbest_size: int | None = None, return_type: Any = None, out_type: Any = None) -> Any:
        """The nbest_size best encodings of a text (or of each text of a list), best first."""
        return_type = resolve_return_type(return_type, out_type, self._return_type)
        options = self._options(add_bos, add_eos, reverse, emit_unk_piece)
        size = self._nbest_size if nbest_size is None else nbest_size
        size = max(size, 1)
        if isinstance(input, list):
            return [self._nbest_one(text, size, return_type, options) for text in input]
        return self._nbest_one(input, size, return_type, options)

    def _nbest_one(self, text: Any, size: int, return_type: Any, options: tuple[bool, bool, bool, bool]) -> Any:
        """The n best of one text in the return type."""
        found = self._engine.nbest(_as_bytes(text), size)
        if return_type in ("proto", "serialized_proto"):
            if any(options):
                raise RuntimeError(EXTRA_OPTIONS_IN_PROTO)
            message = _nbest_message(found)
            return message if return_type == "proto" else message.SerializeToString()
        if return_type == "offset_mapping":
            raise ValueError(f"unknown return_type={return_type}")
        results = [self._with_options(segmented.pieces, options) for segmented in found]
        if return_type is int:
            return [[p.id for p in pieces] for pieces in results]
        if return_type == "numpy":
            return [_frozen_array([p.id for p in pieces]) for pieces in results]
        if return_type is bytes:
            return [[p.piece.encode("utf-8") for p in pieces] for pieces in results]
        return [[p.piece for p in pieces] for pieces in results]

    def ParallelEncode(self, input: Any, add_bos: bool | None = None, add_eos: bool | None = None,
                       reverse: bool | None = None, emit_unk_piece: bool | None = None,
                       chunk_len: int | None = None, num_threads: int | None = None, thread_pool: Any = None,
                       return_type: Any = None, out_type: Any = None) -> Any:
        """A long text encoded in chunks: the same result as `encode` (sentencepiece's chunks overlap
        until they agree); here the text is encoded whole."""
        return_type = resolve_return_type(return_type, out_type, self._return_type)
        self._check_threads(num_threads)
        if chunk_len is None or not isinstance(chunk_len, int) or chunk_len <= 0:
            raise ValueError("chunk_len must be positive.")
        options = dict(add_bos=add_bos, add_eos=add_eos, reverse=reverse, emit_unk_piece=emit_unk_piece)
        if isinstance(input, list):
            return [self.Encode(text, return_type=return_type, enable_sampling=False, **options) for text in input]
        return self.Encode(input, return_type=return_type, enable_sampling=False, **options)

    # ----- decoding -------------------------------------------------------------------------

    def Decode(self, input: Any, return_type: Any = None, out_type: Any = None, num_threads: int | None = None,
               thread_pool: Any = None, return_bytes: bool | None = None) -> Any:
        """Ids or pieces (one sequence or a batch) back to text, bytes, protos or offset mappings."""
        return_type = resolve_return_type(return_type, out_type, str)
        if return_bytes is not None and return_type != "offset_mapping":
            raise ValueError("return_bytes is only supported when return_type='offset_mapping'")
        if return_type not in (str, bytes, "proto", "serialized_proto", "offset_mapping"):
            raise ValueError(f"unknown return_type={return_type} or input type")
        self._check_threads(num_threads)
        if input is None or (isinstance(input, (str, bytes)) and not input):
            input = []
        if not _is_sequence(input):
            input = [input]
        batch = input.ndim > 1 if hasattr(input, "ndim") else (len(input) > 0 and _is_sequence(input[0]))
        if hasattr(input, "ndim") and input.ndim > 2:
            raise TypeError(ID_INPUT)
        if batch:
            return [self._decoded(list(item), return_type, return_bytes) for item in input]
        return self._decoded(list(input), return_type, return_bytes)

    def _decoded(self, items: list, return_type: Any, return_bytes: bool | None) -> Any:
        """One sequence decoded, in the return type (pieces given as bytes map offsets in bytes)."""
        as_bytes = bool(items) and isinstance(items[0], bytes) if return_bytes is None else return_bytes
        return _decoded_as(return_type, as_bytes)(decode_items(self._engine, items))

    def DecodePieces(self, input: Any, return_type: Any = None, **options: Any) -> Any:
        """decode of pieces."""
        return self.Decode(input=input, return_type=return_type, **options)

    def DecodeIds(self, input: Any, return_type: Any = None, **options: Any) -> Any:
        """decode of ids."""
        return self.Decode(input=input, return_type=return_type, **options)

    def DecodePiecesAsProto(self, input: Any, **options: Any) -> Any:
        """decode of pieces into a SentencePieceText."""
        return self.Decode(input=input, return_type="proto", **options)

    def DecodeIdsAsProto(self, input: Any, **options: Any) -> Any:
        """decode of ids into a SentencePieceText."""
        return self.Decode(input=input, return_type="proto", **options)

    # ----- normalization ----------------------------------------------------------------------

    def Normalize(self, input: Any, with_offsets: bool | None = None) -> Any:
        """The text as the model normalizes it (with, per char or byte, where it came from)."""
        if isinstance(input, list):
            return [normalized(self._engine.normalizer, text, with_offsets) for text in input]
        return normalized(self._engine.normalizer, input, with_offsets)

    # ----- pieces ---------------------------------------------------------------------------

    def GetPieceSize(self) -> int:
        """The number of pieces."""
        return len(self._engine.pieces)

    def PieceToId(self, piece: Any) -> Any:
        """The id of a piece (the unknown id for a string that is none), or of each of a list."""
        engine = self._engine
        if isinstance(piece, (str, bytes)):
            return engine.piece_to_id(_piece_text(piece))
        if _is_sequence(piece) and not isinstance(piece, dict):
            return [engine.piece_to_id(_piece_text(item)) for item in piece]
        raise TypeError("PieceToId(): incompatible function arguments: expected str or a sequence of str")

    def IdToPiece(self, id: Any) -> Any:
        """The piece of an id, or of each of a sequence (IndexError out of range)."""
        return self._per_id(id, lambda i: self._engine.pieces[i])

    def GetScore(self, id: Any) -> Any:
        """The score of a piece (or of each)."""
        return self._per_id(id, lambda i: self._engine.scores[i])

    def IsUnknown(self, id: Any) -> Any:
        """Whether the piece is the unknown piece."""
        return self._per_id(id, lambda i: i == self._engine.unk_id)

    def IsControl(self, id: Any) -> Any:
        """Whether the piece is a control piece."""
        return self._per_id(id, lambda i: self._engine.types[i] == 3)

    def IsUnused(self, id: Any) -> Any:
        """Whether the piece is an unused piece."""
        return self._per_id(id, lambda i: self._engine.types[i] == 5)

    def IsByte(self, id: Any) -> Any:
        """Whether the piece is a byte piece."""
        return self._per_id(id, lambda i: self._engine.types[i] == 6)

    def _per_id(self, value: Any, of_id: Callable[[int], Any]) -> Any:
        """`of_id` of one id, or a list of it for a sequence of ids."""
        engine = self._engine
        if _is_sequence(value) and not isinstance(value, dict):
            return [of_id(engine.check_id(_an_id(item))) for item in value]
        return of_id(engine.check_id(_an_id(value)))

    def unk_id(self) -> int:
        """The unknown piece's id."""
        return self._engine.unk_id

    def bos_id(self) -> int:
        """The bos piece's id (-1 when it is no control piece)."""
        return self._engine.special_id("bos")

    def eos_id(self) -> int:
        """The eos piece's id (-1 when it is no control piece)."""
        return self._engine.special_id("eos")

    def pad_id(self) -> int:
        """The pad piece's id (-1 when there is none)."""
        return self._engine.special_id("pad")

    def serialized_model_proto(self) -> bytes:
        """The loaded model as serialized bytes."""
        return self._engine.serialized if self._processor is not None else b""

    piece_size = GetPieceSize
    vocab_size = GetPieceSize

    def __len__(self) -> int:
        return self.GetPieceSize()

    def __getitem__(self, piece: Any) -> Any:
        return self.PieceToId(piece)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("_processor", None)
        state["model_proto"] = self.serialized_model_proto()
        return state

    def __setstate__(self, state: Any) -> None:
        if not isinstance(state, dict):  # older pickles hold the serialized model alone
            state = {"model_proto": state}
        state = dict(state)
        SentencePieceProcessor.__init__(self)
        self.LoadFromSerializedProto(state.pop("model_proto"))
        self.__dict__.update(state)


def _shortcut(method: str, return_type: Any, named: tuple[str, ...] = (), **fixed: Any) -> Callable[..., Any]:
    """A method that calls `method` with one return type (and `fixed` options), taking the
    options `named` by position too, as sentencepiece's shortcuts (NBestEncodeAsPieces(text, 10))."""
    def shortcut(self: "SentencePieceProcessor", input: Any, *values: Any, **options: Any) -> Any:
        options.update(zip(named, values))
        return getattr(self, method)(input=input, return_type=return_type, **fixed, **options)
    shortcut.__doc__ = f"{method} with return_type={return_type!r}{' and ' + str(fixed) if fixed else ''}."
    return shortcut


_NAMES = {str: "Pieces", int: "Ids", "numpy": "Numpy", "proto": "Proto"}
for _type, _name in _NAMES.items():
    setattr(SentencePieceProcessor, f"EncodeAs{_name}", _shortcut("Encode", _type))
    setattr(SentencePieceProcessor, f"SampleEncodeAs{_name}",
            _shortcut("Encode", _type, ("nbest_size", "alpha"), enable_sampling=True))
    setattr(SentencePieceProcessor, f"NBestEncodeAs{_name}", _shortcut("NBestEncode", _type, ("nbest_size",)))
    setattr(SentencePieceProcessor, f"ParallelEncodeAs{_name}", _shortcut("ParallelEncode", _type))
SentencePieceProcessor.EncodeAsOffsetMapping = _shortcut("Encode", "offset_mapping")


def _an_id(value: Any) -> int:
    """An id argument as int (TypeError for anything else)."""
    if isinstance(value, (str, bytes, float)) or not hasattr(value, "__index__"):
        raise TypeError("an id must be an int")
    return int(value)


def _piece_text(piece: Any) -> str:
    """A piece argument as str (TypeError for anything else, and for a str with a lone surrogate)."""
    if isinstance(piece, bytes):
        return piece.decode("utf-8", "replace")
    if not isinstance(piece, str) or not _is_utf8_text(piece):
        raise TypeError("Sequence elements must be str or bytes")
    return piece


def _is_utf8_text(text: str | bytes) -> bool:
    """Whether a str has UTF-8 (no lone surrogate); bytes always pass."""
    if isinstance(text, bytes) or text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def offset_mapping(segmented: Segmented, as_bytes: bool, with_text: bool) -> dict:
    """{'text'?, 'ids', 'pieces', 'offsets'}: offsets in bytes, or in chars of the text."""
    pieces = segmented.pieces
    result: dict[str, Any] = {}
    data = segmented.text.encode("utf-8")
    if with_text:
        result["text"] = data if as_bytes else segmented.text
    result["ids"] = [p.id for p in pieces]
    if as_bytes:
        result["pieces"] = [p.piece.encode("utf-8") for p in pieces]
        result["offsets"] = [(p.begin, p.end) for p in pieces]
    else:
        result["pieces"] = [p.piece for p in pieces]
        chars = _byte_to_char(data)
        result["offsets"] = [(chars[p.begin], chars[p.end]) for p in pieces]
    return result


def _byte_to_char(data: bytes) -> dict[int, int]:
    """Byte position -> char position at each char boundary of UTF-8 `data` (and its end)."""
    positions = {}
    position = 0
    for index, char in enumerate(data.decode("utf-8")):
        positions[position] = index
        position += len(char.encode("utf-8"))
    positions[position] = len(positions)
    return positions


def _decoded_as(return_type: Any, as_bytes: bool) -> Callable[[Segmented], Any]:
    """How a decoding is returned."""
    if return_type is str:
        return lambda segmented: segmented.text
    if return_type is bytes:
        return lambda segmented: segmented.text.encode("utf-8")
    if return_type == "proto":
        return lambda segmented: segmented.message()
    if return_type == "serialized_proto":
        return lambda segmented: segmented.serialized()
    return lambda segmented: offset_mapping(segmented, as_bytes, with_text=True)


def _nbest_message(found: Sequence[Segmented]) -> Any:
    """An NBestSentencePieceText of encodings."""
    message = schema.NBestSentencePieceText()
    for segmented in found:
        message.nbests.append(segmented.message())
    return message


def normalized(normalizer: Any, text: Any, with_offsets: bool | None) -> Any:
    """`text` normalized: str for str, bytes for bytes; with offsets, per char (per byte for bytes)."""
    data = _as_bytes(text)
    out, origins = normalizer.normalize_bytes(data)
    if isinstance(text, bytes):
        return (out, origins) if with_offsets else out
    result = out.decode("utf-8")
    if not with_offsets:
        return result
    return result, char_offsets(result, data, origins)


__all__ = ["SentencePieceProcessor", "Settings", "normalized", "resolve_return_type"]
