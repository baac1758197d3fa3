"""Chat templates rendered as transformers 5 renders them (`apply_chat_template`).

A template is Jinja run in jinja2's immutable sandbox with blocks trimmed (trim_blocks,
lstrip_blocks), loop controls ({% break %}, {% continue %}), the `{% generation %}` tag that marks
the assistant's text, and transformers' names: the `tojson` filter without HTML escaping and with
json.dumps' options, `raise_exception(message)` (a jinja2 TemplateError), `strftime_now(format)`,
a `dict` and a `namespace` that refuse underscore names. The template sees `messages`, `tools`
(dicts, or Python functions turned into JSON schemas), `documents`, `add_generation_prompt`, the
special tokens by role (bos_token, eos_token, ...) and any other keyword given.

jinja2 is the optional extra `hfcompat[chat]`: without it, rendering raises MissingDependency.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import sys
import warnings
from types import ModuleType
from typing import Any, Mapping, Sequence

from .tool_schemas import function_schema

# Keys a message's reasoning comes under; templates read the first, gpt-oss's read "thinking".
REASONING_KEYS = ("reasoning_content", "thinking", "reasoning")
# Appended to the text the model is to continue, found again in the rendering and cut there.
CONTINUE_MARK = "CONTINUE_FINAL_MESSAGE_TAG "
GENERATION_TAG = re.compile(r"\{%-?\s*generation\s*-?%\}")

Span = tuple[int, int]


@dataclasses.dataclass
class Rendered:
    """The text of each conversation and, when asked for, the spans of its `{% generation %}` blocks."""

    texts: list[str]
    generation_spans: list[list[Span]]


# ----- choosing the template --------------------------------------------------------------------

def select_template(templates: str | Mapping[str, str] | None, chat_template: str | None,
                    tools: Sequence[Any] | None) -> str:
    """The template text to render: the caller's, one named in a set, the set's "tool_use" when tools
    are given, its "default", or the tokenizer's single template."""
    if isinstance(templates, Mapping):
        if chat_template is not None:
            return templates.get(chat_template, chat_template)
        if tools is not None and "tool_use" in templates:
            return templates["tool_use"]
        if "default" in templates:
            return templates["default"]
        raise ValueError("this tokenizer has several chat templates and none is named 'default': pass a template "
                         f"or one of the names {sorted(templates)} as chat_template")
    if chat_template is not None:
        return chat_template
    if templates is None:
        raise ValueError("this tokenizer has no chat_template and none was passed: set tokenizer.chat_template "
                         "or pass chat_template= (see transformers' chat templating guide)")
    return templates


# ----- what the template sees -------------------------------------------------------------------

def message_dicts(value: Any) -> Any:
    """Messages given as objects (dataclasses, pydantic models) as dicts, all the way down."""
    if isinstance(value, Mapping):
        return {key: message_dicts(item) for key, item in value.items()}
    if isinstance(value, list):
        return [message_dicts(item) for item in value]
    if isinstance(value, tuple):
        return tuple(message_dicts(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: message_dicts(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if callable(getattr(value, "model_dump", None)):
        return message_dicts(value.model_dump())
    return value


def conversation_messages(conversation: Any) -> list[dict[str, Any]]:
    """A conversation's messages as dicts, keys whose value is None left out."""
    messages = message_dicts(getattr(conversation, "messages", conversation))
    for message in messages:
        if not isinstance(message, dict):
            raise TypeError(f"a chat message must be a dict, a dataclass or a pydantic model, not {message!r}")
    return [{key: value for key, value in message.items() if value is not None} for message in messages]


def plain_data(value: Any) -> Any:
    """`value` rebuilt from JSON's types alone (what the sandbox may safely see); any other
    object becomes the text "<TypeName>" (templates only test such values for presence)."""
    kind = type(value)
    if value is None or kind in (str, int, float, bool):
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, Mapping):
        return {plain_data(key): plain_data(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_data(item) for item in value]
    if isinstance(value, tuple):
        return tuple(plain_data(item) for item in value)
    numpy = sys.modules.get("numpy")  # a numpy scalar exists only once numpy is imported
    if numpy is not None and isinstance(value, numpy.generic):
        return plain_data(value.item())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: plain_data(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if callable(getattr(value, "model_dump", None)):
        return plain_data(value.model_dump())
    return f"<{kind.__name__}>"


def with_reasoning_aliases(messages: list[Any]) -> list[Any]:
    """Each message's reasoning under "reasoning_content" and "thinking" too, whichever key held it."""
    aliased = []
    for message in messages:
        if isinstance(message, dict):
            reasoning = next((message[key] for key in REASONING_KEYS if message.get(key) is not None), None)
            if reasoning is not None:
                message = {"thinking": reasoning, **message, "reasoning_content": reasoning}
        aliased.append(message)
    return aliased


def tool_schemas(tools: Sequence[Any] | None) -> list[dict[str, Any]] | None:
    """Tools as JSON schemas: dicts as they are, functions and methods described by function_schema."""
    if tools is None:
        return None
    schemas = []
    for tool in tools:
        if isinstance(tool, dict):
            schemas.append(tool)
        elif inspect.isfunction(tool) or inspect.ismethod(tool):
            schemas.append(function_schema(tool))
        else:
            raise ValueError("a tool must be a JSON schema (a dict) or a Python function with type hints and a "
                             f"Google-style docstring, not {tool!r}")
    return schemas


# ----- continuing the final message -------------------------------------------------------------

def mark_final_message(messages: list[dict[str, Any]], key: str, template: str) -> str:
    """Append CONTINUE_MARK to the final message's `key` (its last text block, for a list of
    blocks); returns that text before marking."""
    if not messages:
        raise ValueError("continue_final_message is set but the conversation has no message")
    final = messages[-1].get(key)
    if final is None:
        raise ValueError(f'continue_final_message is set but the final message has no "{key}" to continue')
    keys = [key]
    if key in REASONING_KEYS:  # reasoning is under several keys: mark each copy, whichever the template reads
        keys = [name for name in REASONING_KEYS if messages[-1].get(name) == final]
    if not any(name in template for name in keys):
        raise ValueError(f'continue_final_message is set to "{key}", which the chat template never mentions')
    if isinstance(final, (list, tuple)):
        for block in reversed(final):
            if "text" in block:
                text = block["text"]
                block["text"] = text + CONTINUE_MARK
                return text
        raise ValueError("continue_final_message is set but the final message has no text block to continue")
    for name in keys:
        messages[-1][name] = messages[-1][name] + CONTINUE_MARK
    return final


def cut_at_mark(rendered: str, final: str) -> str:
    """The rendering up to where the final message's text ends (the mark and all after it removed)."""
    mark = CONTINUE_MARK.strip()
    if final.strip() not in rendered or mark not in rendered:
        raise ValueError("continue_final_message is set but the final message is not in the rendered chat (does "
                         "the template drop or rewrite part of it?)\n"
                         f"Final message: {final.strip()}\nRendered chat:\n{rendered}")
    where = rendered.rindex(mark)
    if rendered.startswith(CONTINUE_MARK, where):
        return rendered[:where]
    return rendered[:where].rstrip()  # the template trimmed the message's trailing space: so do we


# ----- rendering --------------------------------------------------------------------------------

def jinja_sandbox() -> ModuleType:
    """The Jinja sandbox module, imported when a template is first rendered: jinja2 is an optional
    extra and costs a cold start more than the rest of the tokenizer's imports together."""
    return importlib.import_module(".jinja_sandbox", __package__)


def render_conversations(conversations: list[list[dict[str, Any]]], template: str, *,
                         tools: Sequence[Any] | None = None, documents: Sequence[Any] | None = None,
                         add_generation_prompt: bool = False, continue_final_message: bool | str = False,
                         track_generation: bool = False, variables: Mapping[str, Any] | None = None) -> Rendered:
    """Render each conversation (its messages already dicts) with the template."""
    sandbox = jinja_sandbox()
    compiled = sandbox.compile_template(template)
    schemas = plain_data(tool_schemas(tools))
    if documents is not None and not all(isinstance(document, dict) for document in documents):
        raise TypeError("documents must be a list of dicts (with 'title' and 'text' keys, usually)")
    documents = plain_data(documents)
    variables = plain_data(dict(variables or {}))
    key = continue_final_message if isinstance(continue_final_message, str) else "content"
    result = Rendered([], [])
    for conversation in conversations:
        messages = plain_data(conversation)
        for message in messages:
            if not isinstance(message, dict):
                raise TypeError(f"a chat message must be a dict, a dataclass or a pydantic model, not {message!r}")
        messages = with_reasoning_aliases(messages)
        final = mark_final_message(messages, key, template) if continue_final_message else None
        if track_generation:
            chunks: list[str] = []
            spans: list[Span] = []
            with sandbox.tracking_generation(chunks, spans):
                for chunk in compiled.generate(messages=messages, tools=schemas, documents=documents,
                                               add_generation_prompt=add_generation_prompt, **variables):
                    chunks.append(chunk)
            text = "".join(chunks)
            result.generation_spans.append(spans)
        else:
            text = compiled.render(messages=messages, tools=schemas, documents=documents,
                                   add_generation_prompt=add_generation_prompt, **variables)
        result.texts.append(cut_at_mark(text, final) if final is not None else text)
    return result


def has_generation_tag(template: str) -> bool:
    """Whether the template marks the assistant's text with `{% generation %}`."""
    return GENERATION_TAG.search(template) is not None


# ----- apply_chat_template ----------------------------------------------------------------------

# Keyword options of tokenizer_kwargs that the tokenizing step follows (transformers passes them to
# its tokenizer call, which takes many more).
TOKENIZER_OPTIONS = ("padding_side", "truncation_side", "pad_to_multiple_of", "return_attention_mask")


def apply_chat_template(tokenizer: Any, conversation: Any, tools: Sequence[Any] | None = None,
                        documents: Sequence[Any] | None = None, chat_template: str | None = None,
                        add_generation_prompt: bool = False, continue_final_message: bool | str = False,
                        tokenize: bool = True, padding: bool | str = False, truncation: bool = False,
                        max_length: int | None = None, return_dict: bool = True,
                        return_assistant_tokens_mask: bool = False,
                        tokenizer_kwargs: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
    """`tokenizer.apply_chat_template(...)` as transformers 5 runs it (see Tokenizer.apply_chat_template)."""
    refuse_unsupported(kwargs)
    if not tokenize:
        return_dict = False
    if return_assistant_tokens_mask and not (return_dict and tokenize):
        raise ValueError("return_assistant_tokens_mask=True needs return_dict=True and tokenize=True")
    template = select_template(tokenizer.chat_template, chat_template, tools)
    if isinstance(conversation, (list, tuple)) and not conversation:
        raise ValueError("apply_chat_template needs at least one message; the conversation is empty")
    batched = isinstance(conversation, (list, tuple)) and (
        isinstance(conversation[0], (list, tuple)) or hasattr(conversation[0], "messages"))
    conversations = [conversation_messages(chat) for chat in (conversation if batched else [conversation])]
    if continue_final_message and add_generation_prompt:
        raise ValueError("continue_final_message and add_generation_prompt exclude each other: the first leaves "
                         "the final message open for the model to continue, the second starts a new assistant "
                         "message")
    if continue_final_message and return_assistant_tokens_mask:
        raise ValueError("continue_final_message cannot be combined with return_assistant_tokens_mask")
    if return_assistant_tokens_mask and not has_generation_tag(template):
        _warn("return_assistant_tokens_mask=True but the chat template has no {% generation %} block: "
              "the mask is all zeros")
    variables = {**(getattr(tokenizer, "named_special_tokens", None) or {}), **kwargs}
    rendered = render_conversations(conversations, template, tools=tools, documents=documents,
                                    add_generation_prompt=add_generation_prompt,
                                    continue_final_message=continue_final_message,
                                    track_generation=return_assistant_tokens_mask, variables=variables)
    if not tokenize:
        return rendered.texts if batched else rendered.texts[0]
    options = dict(tokenizer_kwargs or {})
    unknown = sorted(set(options) - set(TOKENIZER_OPTIONS))
    if unknown:
        raise TypeError(f"tokenizer_kwargs {unknown} are not supported here (hfcompat follows {TOKENIZER_OPTIONS})")
    encoded = encode_rendered(tokenizer, rendered.texts, padding, truncation, max_length, **options)
    if return_assistant_tokens_mask:
        encoded["assistant_masks"] = [generation_mask(offsets, spans) for offsets, spans in
                                      zip(encoded.pop("offsets"), rendered.generation_spans)]
    else:
        encoded.pop("offsets")
    if options.get("return_attention_mask") is False:
        encoded.pop("attention_mask")
    if not return_dict:
        return encoded["input_ids"] if batched else encoded["input_ids"][0]
    return encoded if batched else {name: rows[0] for name, rows in encoded.items()}


def refuse_unsupported(kwargs: dict[str, Any]) -> None:
    """Take out transformers' call options hfcompat does not follow, refusing them when set (else
    they would silently reach the template as variables)."""
    if kwargs.pop("return_tensors", None) is not None:
        raise ValueError("return_tensors: hfcompat's apply_chat_template returns Python lists")
    if kwargs.pop("sanitize_control_tokens", False):
        raise NotImplementedError("sanitize_control_tokens (transformers 5.24) is not implemented in hfcompat")


def encode_rendered(tokenizer: Any, texts: list[str], padding: bool | str, truncation: bool,
                    max_length: int | None, padding_side: str | None = None, truncation_side: str | None = None,
                    pad_to_multiple_of: int | None = None, return_attention_mask: bool | None = None
                    ) -> dict[str, list]:
    """input_ids, attention_mask and offsets of the rendered texts, encoded without the
    post-processor's special tokens (the template writes them), truncated and padded as asked."""
    encodings = [tokenizer.encode(text, add_special_tokens=False, allowed_special="all") for text in texts]
    rows = [(list(e.ids), [1] * len(e.ids), [tuple(o) for o in e.offsets]) for e in encodings]
    limit = max_length if max_length is not None else getattr(tokenizer.truncation, "max_length", None)
    if truncation and truncation != "do_not_truncate" and limit is not None:
        keep = (lambda row: row[len(row) - limit:] if limit else []) if truncation_side == "left" \
            else (lambda row: row[:limit])
        rows = [(keep(ids), keep(mask), keep(offsets)) for ids, mask, offsets in rows]
    target = padded_length([len(ids) for ids, _, _ in rows], padding, max_length, pad_to_multiple_of)
    if target is not None:
        pad_id = pad_token_id(tokenizer)
        side = padding_side or (tokenizer.padding.direction.lower() if tokenizer.padding is not None else "right")
        rows = [pad_row(row, target, pad_id, side) for row in rows]
    return {"input_ids": [row[0] for row in rows], "attention_mask": [row[1] for row in rows],
            "offsets": [row[2] for row in rows]}


def padded_length(lengths: list[int], padding: bool | str, max_length: int | None,
                  multiple: int | None) -> int | None:
    """The length every row is padded to, or None for no padding."""
    if padding is True or padding == "longest":
        target = max(lengths)
    elif padding == "max_length" and max_length is not None:
        target = max_length
    elif padding in (False, None, "do_not_pad", "max_length"):
        return None
    else:
        raise ValueError(f"padding must be True, False, 'longest', 'max_length' or 'do_not_pad', not {padding!r}")
    if multiple:
        target = -(-target // multiple) * multiple
    return target


def pad_token_id(tokenizer: Any) -> int:
    """The id of the tokenizer's pad token, or the error transformers gives when it has none."""
    pad = (getattr(tokenizer, "named_special_tokens", None) or {}).get("pad_token")
    if pad is None and tokenizer.padding is not None:
        return tokenizer.padding.pad_id
    pad_id = tokenizer.token_to_id(pad) if pad is not None else None
    if pad_id is None:
        raise ValueError("padding needs a pad token, and this tokenizer has none: name one (e.g. "
                         "tokenizer.named_special_tokens['pad_token'] = an added token) or do not pad")
    return pad_id


def pad_row(row: tuple[list, list, list], length: int, pad_id: int, side: str) -> tuple[list, list, list]:
    """One row's ids, mask and offsets padded to `length` on `side`."""
    ids, mask, offsets = row
    missing = length - len(ids)
    if missing <= 0:
        return row
    if side == "left":
        return [pad_id] * missing + ids, [0] * missing + mask, [(0, 0)] * missing + offsets
    return ids + [pad_id] * missing, mask + [0] * missing, offsets + [(0, 0)] * missing


def generation_mask(offsets: list[Span], spans: list[Span]) -> list[int]:
    """1 for each token that overlaps a `{% generation %}` span, else 0 (a token cut by a span
    boundary counts; pads, whose offsets are (0, 0), never do)."""
    mask = [0] * len(offsets)
    index = 0
    for position, (start, end) in enumerate(offsets):
        while index < len(spans) and start >= spans[index][1]:
            index += 1
        if index == len(spans):
            break
        if end > spans[index][0]:
            mask[position] = 1
    return mask


def _warn(message: str) -> None:
    """A UserWarning pointing at the caller of apply_chat_template."""
    warnings.warn(message, UserWarning, stacklevel=4)
