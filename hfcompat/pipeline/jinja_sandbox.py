"""The Jinja side of chat templates: transformers' sandbox (immutable, blocks trimmed, its
`tojson`, `raise_exception`, `strftime_now`, `dict` and `namespace` globals and the
`{% generation %}` tag), in a module of its own so that jinja2 loads when a template is first
rendered, not with the tokenizer. jinja2 is the optional extra `hfcompat[chat]`: without it,
compiling a template raises MissingDependency."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from functools import lru_cache
from typing import Any, Callable, Iterator

from ..errors import MissingDependency

try:
    import jinja2
    import jinja2.ext
    import jinja2.nodes
    import jinja2.sandbox
    import jinja2.utils
except ImportError:  # the `chat` extra is not installed: rendering says so
    jinja2 = None

MISSING_JINJA = "Chat templates need the jinja2 package (>= 3.1.6): pip install 'hfcompat[chat]'"

# ----- the environment --------------------------------------------------------------------

def require_jinja() -> None:
    """MissingDependency when jinja2 is not installed (or is older than transformers accepts)."""
    if jinja2 is None:
        raise MissingDependency(MISSING_JINJA)
    if tuple(int(part) for part in re.findall(r"\d+", jinja2.__version__)[:3]) < (3, 1, 6):
        raise MissingDependency(f"{MISSING_JINJA}; jinja2 {jinja2.__version__} is installed (older versions "
                                "have known sandbox escapes, and transformers refuses them)")


def raise_exception(message: str) -> None:
    """The template's `raise_exception(message)`: a jinja2 TemplateError, as transformers raises."""
    raise jinja2.exceptions.TemplateError(message)


def to_json(value: Any, ensure_ascii: bool = False, indent: int | str | None = None,
            separators: tuple[str, str] | None = None, sort_keys: bool = False) -> str:
    """The `tojson` filter: json.dumps with its options (no HTML escaping, unlike Jinja's own)."""
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def strftime_now(format: str) -> str:
    """The template's `strftime_now(format)`: the local time now, formatted."""
    return datetime.now().strftime(format)


class TemplateDict:
    """The template's `dict`: builds dicts, and exposes nothing else of the type."""

    def __call__(self, *args: Any, **kwargs: Any) -> dict:
        return dict(*args, **kwargs)

    def fromkeys(self, *args: Any, **kwargs: Any) -> dict:
        """dict.fromkeys."""
        return dict.fromkeys(*args, **kwargs)


_generation_spans: ContextVar[tuple[list[str], list[tuple[int, int]]] | None] = ContextVar("generation_spans", default=None)


@contextmanager
def tracking_generation(chunks: list[str], spans: list[tuple[int, int]]) -> Iterator[None]:
    """While active, each `{% generation %}` block appends its span in the text of `chunks` to `spans`."""
    token = _generation_spans.set((chunks, spans))
    try:
        yield
    finally:
        _generation_spans.reset(token)


if jinja2 is not None:
    class GenerationTag(jinja2.ext.Extension):
        """`{% generation %}...{% endgeneration %}`: renders its body, and records where it lands."""

        tags = {"generation"}

        def parse(self, parser: Any) -> Any:
            """The tag's body, wrapped in a call to `_mark`."""
            line = next(parser.stream).lineno
            body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
            return jinja2.nodes.CallBlock(self.call_method("_mark"), [], [], body).set_lineno(line)

        def _mark(self, caller: Callable[[], str]) -> str:
            """The body's text; its span when tracking (the text so far is what was yielded so far)."""
            text = caller()
            tracked = _generation_spans.get()
            if tracked is not None:
                chunks, spans = tracked
                start = sum(len(chunk) for chunk in chunks)
                spans.append((start, start + len(text)))
            return text

    class TemplateNamespace(jinja2.utils.Namespace):
        """The template's `namespace`, refusing attribute names that start with "_"."""

        def __init__(*args: Any, **kwargs: Any):  # noqa: N805 - `self` may be a keyword, as in Jinja's
            self, rest = args[0], args[1:]
            values = dict(*rest, **kwargs)
            for name in values:
                _check_attribute(name)
            jinja2.utils.Namespace.__init__(self, values)

        def __setitem__(self, name: str, value: Any) -> None:
            _check_attribute(name)
            jinja2.utils.Namespace.__setitem__(self, name, value)


def _check_attribute(name: Any) -> None:
    """SecurityError for a namespace attribute whose name starts with an underscore."""
    if isinstance(name, str) and name.startswith("_"):
        raise jinja2.exceptions.SecurityError(
            f"a chat template may not set the underscore attribute {name!r} on a namespace; rename it")


@lru_cache(maxsize=64)
def compile_template(source: str) -> Any:
    """The compiled template (cached by its text), in the sandbox with transformers' names."""
    require_jinja()
    environment = jinja2.sandbox.ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[GenerationTag, jinja2.ext.loopcontrols])
    environment.filters["tojson"] = to_json
    environment.globals.update(raise_exception=raise_exception, strftime_now=strftime_now, dict=TemplateDict(),
                               namespace=TemplateNamespace)
    return environment.from_string(source)


