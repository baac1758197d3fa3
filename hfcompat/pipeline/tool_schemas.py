"""JSON schemas of Python functions offered to a chat template as tools, as transformers derives
them (`transformers.utils.get_json_schema`): the types from the type hints, the descriptions from
a Google-style docstring ("Args:" and "Returns:" blocks, an optional "(choices: [...])" at the
end of an argument's line)."""

from __future__ import annotations

import inspect
import json
import re
import types
from enum import Enum
from typing import Any, Callable, Literal, Union, get_args, get_origin, get_type_hints

from ..errors import HfcompatError


class TypeHintParsingException(HfcompatError):
    """A type hint has no JSON-schema form (a custom class, a one-element tuple, ...)."""


class DocstringParsingException(HfcompatError):
    """The docstring is missing, or does not describe every argument."""


JSON_SCALARS = {int: "integer", float: "number", str: "string", bool: "boolean", type(None): "null"}
PLAIN_TYPES: dict[Any, dict[str, str]] = {
    int: {"type": "integer"}, float: {"type": "number"}, str: {"type": "string"},
    bool: {"type": "boolean"}, type(None): {"type": "null"}, list: {"type": "array"},
    tuple: {"type": "array"}, dict: {"type": "object"}, Any: {},
}
# The docstring's parts: the summary before the first section, the Args block, the Returns block.
SUMMARY = re.compile(r"^(.*?)[\n\s]*(Args:|Returns:|Raises:|\Z)", re.DOTALL)
ARGS_BLOCK = re.compile(r"\n\s*Args:\n(.*?)[\n\s]*(Returns:|Raises:|\Z)", re.DOTALL)
RETURNS_BLOCK = re.compile(r"\n\s*Returns:\n\s*(.*?)[\n\s]*(Raises:|\Z)", re.DOTALL)
# The line that opens an argument's entry: "name:" or "name (type):", then the description's start.
ENTRY_LINE = re.compile(r"([ \t]*)(\w+)(?:[ \t]*\([^()\n]*\))?:(.*)", re.DOTALL)
CHOICES = re.compile(r"\(choices:\s*(.*?)\)\s*$", re.IGNORECASE)


def function_schema(function: Callable[..., Any]) -> dict[str, Any]:
    """The {"type": "function", "function": {...}} schema of a documented, type-hinted function."""
    name = getattr(function, "__name__", "operation")
    doc = inspect.getdoc(function)
    if not doc:
        raise DocstringParsingException(f"{name} has no docstring, so no JSON schema can describe it")
    summary, described, returns = read_docstring(doc.strip())
    parameters = hinted_parameters(function)
    return_schema = parameters["properties"].pop("return", None)
    if return_schema is not None and returns is not None:
        return_schema["description"] = returns
    for argument, schema in parameters["properties"].items():
        if argument not in described:
            raise DocstringParsingException(
                f"{name}'s docstring does not describe its argument '{argument}', so no JSON schema can describe it")
        description = described[argument]
        choices = CHOICES.search(description)
        if choices:
            schema["enum"] = [c.strip() if isinstance(c, str) else c for c in json.loads(choices.group(1))]
            description = description[:choices.start()].strip()
        schema["description"] = description
    body: dict[str, Any] = {"name": name, "description": summary, "parameters": parameters}
    if return_schema is not None:
        body["return"] = return_schema
    return {"type": "function", "function": body}


def read_docstring(doc: str) -> tuple[str | None, dict[str, str], str | None]:
    """(summary, argument -> description, returns) of a Google-style docstring."""
    summary = SUMMARY.search(doc)
    block = ARGS_BLOCK.search(doc)
    returns = RETURNS_BLOCK.search(doc)
    described: dict[str, str] = {}
    if block is not None:
        described = argument_descriptions([line for line in block.group(1).split("\n") if line.strip()])
    return (summary.group(1).strip() if summary else None, described,
            returns.group(1).strip() if returns else None)


def argument_descriptions(lines: list[str]) -> dict[str, str]:
    """argument -> description of the Args block's non-blank lines: an entry runs on until a line
    that opens another entry and is not indented deeper than the current one."""
    entries: dict[str, list[str]] = {}
    indent: str | None = None
    for line in lines:
        opening = ENTRY_LINE.match(line)
        deeper = indent is not None and line.startswith(indent) and line[len(indent):len(indent) + 1] in (" ", "\t")
        if opening and not deeper:
            indent = opening.group(1)
            entries[opening.group(2)] = parts = [opening.group(3)]
        elif indent is not None:
            parts.append(line)
    return {name: re.sub(r"\s*\n+\s*", " ", "\n".join(parts).strip()) for name, parts in entries.items()}


def hinted_parameters(function: Callable[..., Any]) -> dict[str, Any]:
    """The "parameters" object of the schema: one property per hinted argument (and "return")."""
    hints = get_type_hints(function)
    signature = inspect.signature(function)
    name = getattr(function, "__name__", "operation")
    first = next(iter(signature.parameters), None)
    receiver = first if first in ("self", "cls") and \
        signature.parameters[first].annotation is inspect.Parameter.empty else None
    required = []
    for argument, parameter in signature.parameters.items():
        if argument == receiver:
            continue
        if parameter.annotation is inspect.Parameter.empty:
            raise TypeHintParsingException(f"argument {argument} of {name} has no type hint")
        if parameter.default is inspect.Parameter.empty:
            required.append(argument)
    properties: dict[str, Any] = {}
    for argument, hint in hints.items():
        if argument == receiver:
            continue
        if argument != "return":
            properties[argument] = hint_schema(hint)
            continue
        try:  # the model never writes the return value: a return hint without a schema is left out
            properties[argument] = hint_schema(hint)
        except TypeHintParsingException:
            pass
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def hint_schema(hint: Any) -> dict[str, Any]:
    """The JSON schema of one type hint."""
    origin, arguments = get_origin(hint), get_args(hint)
    if origin is None and isinstance(hint, type) and issubclass(hint, Enum):
        return _enum_schema(hint)
    if origin is None:
        if hint in PLAIN_TYPES:
            return dict(PLAIN_TYPES[hint])
        raise TypeHintParsingException(
            f"no JSON schema for the type hint {hint!r} (a custom class?): tools take int, float, str, bool, "
            "Enum classes, Literal, and list, tuple, dict and unions of those; write the schema by hand instead")
    if origin is Union or origin is getattr(types, "UnionType", None):
        return _union_schema(arguments)
    if origin is Literal and arguments:
        if any(type(argument) not in JSON_SCALARS for argument in arguments):
            raise TypeHintParsingException("typing.Literal may list only int, float, str, bool or None values")
        return _scalar_enum(list(arguments))
    if origin is list:
        return {"type": "array", "items": hint_schema(arguments[0])} if arguments else {"type": "array"}
    if origin is tuple:
        return _tuple_schema(hint, arguments)
    if origin is dict:
        schema: dict[str, Any] = {"type": "object"}
        if len(arguments) == 2:
            schema["additionalProperties"] = hint_schema(arguments[1])
        return schema
    raise TypeHintParsingException(f"no JSON schema for the type hint {hint!r}")


def _enum_schema(enum: type[Enum]) -> dict[str, Any]:
    """An Enum class: the values of its members."""
    values = [member.value for member in enum]
    if not values:
        raise TypeHintParsingException(f"the Enum {enum.__name__} has no members: no value could match it")
    if any(type(value) not in JSON_SCALARS for value in values):
        raise TypeHintParsingException(f"the Enum {enum.__name__} has values JSON cannot write as scalars: {values}")
    return _scalar_enum(values)


def _scalar_enum(values: list[Any]) -> dict[str, Any]:
    """{"type": ..., "enum": values}, the type listing each JSON type of the values once, in order."""
    kinds = list(dict.fromkeys(JSON_SCALARS[type(value)] for value in values))
    return {"type": kinds[0] if len(kinds) == 1 else kinds, "enum": values}


def _union_schema(arguments: tuple[Any, ...]) -> dict[str, Any]:
    """A union: one schema, a list of plain types, or anyOf; "nullable" when None is a member."""
    members = [hint_schema(argument) for argument in arguments if argument is not type(None)]
    if len(members) == 1:
        schema = members[0]
    elif all(member.keys() == {"type"} and isinstance(member["type"], str) for member in members):
        kinds = sorted({member["type"] for member in members})
        schema = {"type": kinds[0] if len(kinds) == 1 else kinds}
    else:
        schema = {"anyOf": members}
    if type(None) in arguments:
        schema["nullable"] = True
    return schema


def _tuple_schema(hint: Any, arguments: tuple[Any, ...]) -> dict[str, Any]:
    """A tuple: its element types as prefixItems (not one element, not `...`)."""
    if not arguments:
        return {"type": "array"}
    if len(arguments) == 1:
        raise TypeHintParsingException(
            f"{str(hint).replace('typing.', '')} is a one-element tuple: use list[...] for several values, "
            "or the element's own type for one")
    if ... in arguments:
        raise TypeHintParsingException("tuple[..., ...] (any length) has no schema here: use list[...]")
    return {"type": "array", "prefixItems": [hint_schema(argument) for argument in arguments]}
