"""Readers for typed fields of tokenizer.json objects, raising FormatError that names the field."""

from __future__ import annotations

from typing import Any, Callable

from ..errors import FormatError

U32_MAX = 2**32 - 1
USIZE_MAX = 2**64 - 1
_MISSING = object()


def require_object(data: Any, what: str) -> dict:
    """The value itself when it is a JSON object."""
    if not isinstance(data, dict):
        raise FormatError(f"expected {what} object, got {type(data).__name__}")
    return data


def field_value(data: dict, name: str, default: Any = _MISSING) -> Any:
    """The raw value of a field; missing without a default is an error."""
    value = data.get(name, default)
    if value is _MISSING:
        raise FormatError(f"missing field `{name}`", field=name)
    return value


def as_uint(value: Any, name: str, maximum: int = U32_MAX) -> int:
    """A non-negative JSON integer no larger than `maximum` (true/false and 1.0 are refused)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum:
        raise FormatError(f"expected an integer in 0..{maximum}, got {value!r}", field=name)
    return value


def as_bool(value: Any, name: str) -> bool:
    """A JSON boolean."""
    if not isinstance(value, bool):
        raise FormatError(f"expected a boolean, got {value!r}", field=name)
    return value


def as_str(value: Any, name: str) -> str:
    """A JSON string."""
    if not isinstance(value, str):
        raise FormatError(f"expected a string, got {value!r}", field=name)
    return value


def as_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """One of the given enum variant names, spelled exactly."""
    if not isinstance(value, str) or value not in choices:
        expected = " or ".join(f"`{c}`" for c in choices)
        raise FormatError(f"unknown variant {value!r}, expected {expected}", field=name)
    return value


def component_list(data: dict, name: str, build: Callable[[Any], Any]) -> list[Any]:
    """The components listed under `name` (a Sequence's members), each built by `build`."""
    items = field_value(data, name)
    if not isinstance(items, list):
        raise FormatError(f"expected a list, got {items!r}", field=name)
    components = []
    for i, item in enumerate(items):
        try:
            components.append(build(item))
        except FormatError as error:
            raise error.at(field=f"{name}[{i}]") from None
    return components


def as_char(value: Any, name: str) -> str:
    """A JSON string holding exactly one character (a Rust `char`)."""
    if not isinstance(value, str) or len(value) != 1:
        raise FormatError(f"expected a one-character string, got {value!r}", field=name)
    return value


def optional_field(data: dict, name: str, read: Callable[[Any, str], Any]) -> Any:
    """A field serde reads as an Option: absent and null both give None."""
    value = data.get(name)
    return None if value is None else read(value, name)
