"""apply_chat_template against transformers.AutoTokenizer: the same text, ids and dict.

The templates of the GGUF files in ../shared/refs/gguf that carry `tokenizer.chat_template`
(each put in a directory by hfcompat's save_pretrained, which AutoTokenizer and hfcompat both
load), and templates written here for what those do not reach: tools (dicts and Python
functions), `{% generation %}` masks, raise_exception, strftime_now, tojson's options, loop
controls, namespaces, named templates, continue_final_message's corners. Where transformers
raises, hfcompat must raise the same type (and, for the template's own errors, the same message).
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import typing
from pathlib import Path
from typing import Any, Callable, Literal, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hfcompat
from hfcompat.errors import MissingDependency
from hfcompat.formats.gguf.metadata import read_metadata
from hfcompat.pipeline import jinja_sandbox
from hfcompat.pipeline.tool_schemas import function_schema
from tests.conformance.test_hypothesis import texts
from tests.conftest import SHARED, shared_file

from .auto_harness import Tally, auto_tokenizer, transformers

jinja2 = pytest.importorskip("jinja2", reason="jinja2 is not installed (the chat extra)")

GGUF_DIR = SHARED / "refs" / "gguf"


def templated_gguf_files() -> list[str]:
    """The GGUF files of ../shared/refs/gguf with a chat template. Their keys are listed by
    hfcompat's metadata reader: the gguf package's GGUFReader takes minutes on these vocabularies
    (test_the_gguf_files_carry_templates checks command-r's keys with it)."""
    if not GGUF_DIR.is_dir():
        return ["(../shared absent)"]
    return [path.name for path in sorted(GGUF_DIR.glob("*.gguf"))
            if any(key.startswith("tokenizer.chat_template") for key in read_metadata(path))]


SYSTEM = {"role": "system", "content": "You are terse. Answer in one line."}
USER = {"role": "user", "content": "What is 2 + 2?  Reply with  spaces, ünïcödé and 中文."}
ASSISTANT = {"role": "assistant", "content": "It is 4. "}
USER_2 = {"role": "user", "content": "And <b>3 + 3</b> & \"quotes\"?\n\nTwo lines."}
WEATHER_TOOL = {"type": "function", "function": {
    "name": "get_weather", "description": "The weather in a city.",
    "parameters": {"type": "object", "properties": {
        "city": {"type": "string", "description": "The city, e.g. Zürich"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}}}
DOCUMENTS = [{"title": "Tides", "text": "The moon pulls the sea."},
             {"title": "Snow", "text": "Ice crystals <fall>."}]
CONVERSATIONS = {
    "user": [USER],
    "system-user-assistant-user": [SYSTEM, USER, ASSISTANT, USER_2],
    "user-assistant": [USER, ASSISTANT],
    "no-system": [USER, ASSISTANT, USER_2],
}


def result(call: Callable[..., Any], *args: Any, worded: bool = False, **kwargs: Any) -> Any:
    """call(...) as plain data, or ("raises", type name, message-if-jinja's) when it raises.

    A jinja2 error carries the template's or Jinja's message, which must match; other errors, and
    jinja2 errors the library words itself (`worded`), are compared by type.
    """
    try:
        value = call(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - an error is a result to compare
        jinja_words = type(error).__module__.startswith("jinja2") and not worded
        return ("raises", type(error).__name__, str(error) if jinja_words else None)
    if hasattr(value, "data") and not isinstance(value, (str, list)):  # transformers' BatchEncoding
        value = dict(value.data)
    return value


def compare_calls(tally: Tally, auto: Any, ours: Any, label: str, conversation: Any, worded: bool = False,
                  **options: Any) -> None:
    """The text, the ids and the dict of one request, on both sides."""
    for extra in ({"tokenize": False}, {"return_dict": False}, {}):
        request = {**options, **extra}
        tally.check(f"{label} {request}", result(auto.apply_chat_template, conversation, worded=worded, **request),
                    result(ours.apply_chat_template, conversation, worded=worded, **request))


def requests() -> list[tuple[str, Any, dict[str, Any]]]:
    """(label, conversation, options) of the requests every GGUF template gets."""
    found = []
    for name, conversation in CONVERSATIONS.items():
        for prompt in (False, True):
            found.append((name, conversation, {"add_generation_prompt": prompt}))
        if conversation[-1]["role"] == "assistant":
            found.append((name, conversation, {"continue_final_message": True}))
    found.append(("tools", [USER], {"tools": [WEATHER_TOOL], "add_generation_prompt": True}))
    found.append(("tool-call", [USER, {"role": "assistant", "content": "", "tool_calls": [
        {"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Oslo"}}}]},
        {"role": "tool", "name": "get_weather", "content": "-3 C"}], {"tools": [WEATHER_TOOL]}))
    found.append(("documents", [USER], {"documents": DOCUMENTS, "add_generation_prompt": True}))
    found.append(("batch", list(CONVERSATIONS.values())[:2], {"add_generation_prompt": True}))
    return found


_directories: dict[str, Path] = {}


def gguf_directory(name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The GGUF's tokenizer and template(s) saved by hfcompat's save_pretrained (once per file)."""
    if name not in _directories:
        tokenizer = hfcompat.load(shared_file(f"refs/gguf/{name}"))
        directory = tmp_path_factory.mktemp(name.replace(".", "_"))
        tokenizer.save_pretrained(directory)
        _directories[name] = directory
    return _directories[name]


@pytest.mark.parametrize("name", templated_gguf_files())
def test_gguf_templates_match_auto_tokenizer(name: str, backend: str,
                                             tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each GGUF's template(s): text, ids and dict as AutoTokenizer gives them on the same directory."""
    if not GGUF_DIR.is_dir():
        pytest.skip("../shared is absent: the GGUF files live beside the repo")
    directory = gguf_directory(name, tmp_path_factory)
    auto, ours = auto_tokenizer(directory), hfcompat.load(directory)
    assert ours.chat_template == auto.chat_template
    tally = Tally(f"{name} on {backend}")
    for label, conversation, options in requests():
        compare_calls(tally, auto, ours, label, conversation, **options)
    if isinstance(ours.chat_template, dict):
        for template_name in ours.chat_template:
            compare_calls(tally, auto, ours, f"template {template_name}", [SYSTEM, USER],
                          chat_template=template_name, tools=[WEATHER_TOOL], documents=DOCUMENTS,
                          add_generation_prompt=True)
    tally.assert_clean()
    assert tally.compared >= 3 * len(requests())


def test_the_gguf_files_carry_templates() -> None:
    """../shared holds GGUF files with chat templates, one of them named (command-r's tool_use, rag)."""
    if not GGUF_DIR.is_dir():
        pytest.skip("../shared is absent: the GGUF files live beside the repo")
    names = templated_gguf_files()
    assert len(names) >= 4
    command_r = hfcompat.load(GGUF_DIR / "ggml-vocab-command-r.gguf")
    assert sorted(command_r.chat_template) == ["default", "rag", "tool_use"]
    gguf = pytest.importorskip("gguf", reason="gguf is not installed (test extra)")
    fields = gguf.GGUFReader(GGUF_DIR / "ggml-vocab-command-r.gguf").fields
    assert command_r.chat_template == {
        "default": fields["tokenizer.chat_template"].contents(),
        **{name: fields[f"tokenizer.chat_template.{name}"].contents() for name in ("tool_use", "rag")}}


# ----- templates written here ---------------------------------------------------------------------

TOOLS_TEMPLATE = """{{ bos_token }}{% if tools %}<tools>{{ tools | tojson }}</tools>
{% for tool in tools %}- {{ tool.function.name }}: {{ tool.function.description }}
{% for name, spec in tool.function.parameters.properties | dictsort %}  {{ name }} ({{ spec.type }}){% if name in tool.function.parameters.required | default([]) %} required{% endif %}

{% endfor %}{% endfor %}{% endif %}
{% for message in messages %}
{% if message.role == 'tool' %}<|user|>
<result name="{{ message.name }}">{{ message.content }}</result><|end|>
{% elif message.tool_calls is defined %}<|assistant|>
{% for call in message.tool_calls %}<call>{{ call.function | tojson }}</call>{% endfor %}<|end|>
{% else %}<|{{ message.role }}|>
{{ message.content }}<|end|>
{% endif %}
{% endfor %}
{% if add_generation_prompt %}<|assistant|>
{% endif %}"""

GENERATION_TEMPLATE = """{% for message in messages %}<|{{ message.role }}|>
{% if message.role == 'assistant' %}{% generation %}{{ message.content }}<|end|>{% endgeneration %}
{% else %}{{ message.content }}<|end|>
{% endif %}{% endfor %}{% if add_generation_prompt %}<|assistant|>
{% endif %}"""

STRICT_TEMPLATE = """{% for message in messages %}{% if message.role not in ['user', 'assistant'] %}\
{{ raise_exception('Unknown role: ' ~ message.role ~ '; only user and assistant alternate') }}{% endif %}\
{% if (message.role == 'user') != (loop.index0 % 2 == 0) %}\
{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}\
<|{{ message.role }}|>
{{ message.content | trim }}<|end|>
{% endfor %}"""

JSON_TEMPLATE = """{% for message in messages %}{{ message | tojson }}
{{ message | tojson(indent=2, sort_keys=True) }}
{{ message | tojson(ensure_ascii=True, separators=(',', ':')) }}
{{ message.content | tojson(indent='\t') }}
{% endfor %}{{ documents | tojson }}"""

LOOP_TEMPLATE = """{% set ns = namespace(seen=0, last='') %}{% for message in messages %}\
{% if message.role == 'system' %}{% continue %}{% endif %}\
{% if ns.seen >= limit %}{% break %}{% endif %}{% set ns.seen = ns.seen + 1 %}{% set ns.last = message.role %}\
[{{ loop.index }}/{{ loop.length }}{% if loop.first %} first{% endif %}{% if loop.last %} last{% endif %}] \
{{ message.content }}
{% endfor %}seen={{ ns.seen }} last={{ ns.last }} {{ dict(a=1, b=eos_token) | tojson }} \
{{ dict.fromkeys(['x', 'y'], 0) | tojson }} {{ messages | map(attribute='role') | join(',') }}"""

DATE_TEMPLATE = """{{ strftime_now('%Y') }}|{% for message in messages %}{{ message.content }}{% endfor %}"""

REASONING_TEMPLATE = """{% for message in messages %}<|{{ message.role }}|>\
{% if message.reasoning_content is defined %}<think>{{ message.reasoning_content }}</think>{% endif %}\
{% if message.content is string %}{{ message.content }}{% else %}\
{% for block in message.content %}{% if block.type == 'text' %}{{ block.text }}{% else %}[{{ block.type }}]{% endif %}\
{% endfor %}{% endif %}<|end|>
{% endfor %}"""

TRIMMING_TEMPLATE = """{% for message in messages %}<|{{ message.role }}|>{{ message.content | trim }}<|end|>{% endfor %}"""

ESCAPE_TEMPLATE = """{{ messages.__class__ }}"""
NAMESPACE_ESCAPE_TEMPLATE = """{% set ns = namespace(_hidden=1) %}{{ ns._hidden }}"""
SYNTAX_ERROR_TEMPLATE = """{% for message in messages %}{{ message.content }}"""


@pytest.fixture(scope="module")
def phi3_directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Phi-3-mini's tokenizer (SentencePiece-style BPE, <|user|> ... <|end|> tokens) saved by
    hfcompat with <|endoftext|> as the pad token and the templates written here by name."""
    tokenizer = hfcompat.load(shared_file("refs/phi-3-mini/tokenizer.json"))
    tokenizer.chat_template = {"default": GENERATION_TEMPLATE, "tool_use": TOOLS_TEMPLATE, "strict": STRICT_TEMPLATE}
    directory = tmp_path_factory.mktemp("phi3")
    tokenizer.save_pretrained(directory, special_tokens={"pad_token": "<|endoftext|>"})
    return directory


@pytest.fixture(scope="module")
def auto_phi3(phi3_directory: Path) -> Any:
    """AutoTokenizer on that directory."""
    return auto_tokenizer(phi3_directory)


def own_requests() -> list[tuple[str, Any, dict[str, Any]]]:
    """(label, conversation, options) for the templates written here."""
    chat = [SYSTEM, USER, ASSISTANT, USER_2]
    tool_call = {"role": "assistant", "tool_calls": [
        {"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}}],
        "content": None}
    found: list[tuple[str, Any, dict[str, Any]]] = [
        ("default (generation tags)", chat, {}),
        ("default, prompt", chat, {"add_generation_prompt": True}),
        ("named tool_use", chat, {"chat_template": "tool_use"}),
        ("tools pick tool_use", [USER, tool_call, {"role": "tool", "name": "get_weather", "content": "-3 C"}],
         {"tools": [WEATHER_TOOL], "add_generation_prompt": True}),
        ("python tools", [USER], {"tools": [get_weather, convert, Calculator().add], "chat_template": TOOLS_TEMPLATE}),
        ("named strict", [USER, ASSISTANT], {"chat_template": "strict"}),
        ("raise_exception role", chat, {"chat_template": "strict"}),
        ("raise_exception order", [USER, USER_2], {"chat_template": "strict"}),
        ("tojson options", [SYSTEM, USER_2], {"chat_template": JSON_TEMPLATE, "documents": DOCUMENTS}),
        ("loop controls", chat + [ASSISTANT], {"chat_template": LOOP_TEMPLATE, "limit": 2}),
        ("strftime_now", [USER], {"chat_template": DATE_TEMPLATE}),
        ("special-token variables", [USER], {"chat_template": "{{ bos_token }}|{{ eos_token }}|{{ pad_token }}|"
                                             "{{ unk_token }}|{{ extra }}", "extra": {"k": [1, 2]}}),
        ("kwarg overrides a role", [USER], {"chat_template": "{{ bos_token }}{{ messages[0].content }}",
                                            "bos_token": "<|user|>"}),
        ("continue, trailing space kept", [USER, ASSISTANT], {"continue_final_message": True}),
        ("continue, trailing space trimmed", [USER, ASSISTANT],
         {"continue_final_message": True, "chat_template": TRIMMING_TEMPLATE}),
        ("continue reasoning", [USER, {"role": "assistant", "content": "Sure", "reasoning": "Let me think"}],
         {"continue_final_message": "reasoning_content", "chat_template": REASONING_TEMPLATE}),
        ("continue content blocks", [USER, {"role": "assistant", "content": [
            {"type": "text", "text": "First"}, {"type": "image"}, {"type": "text", "text": "Second "}]}],
         {"continue_final_message": True, "chat_template": REASONING_TEMPLATE}),
        ("continue a key the template lacks", [USER, ASSISTANT],
         {"continue_final_message": "summary", "chat_template": REASONING_TEMPLATE}),
        ("continue without the key", [USER, ASSISTANT],
         {"continue_final_message": "reasoning_content", "chat_template": REASONING_TEMPLATE}),
        ("continue a message the template drops", [USER, ASSISTANT],
         {"continue_final_message": True, "chat_template": "{{ messages[0].content }}"}),
        ("continue with a prompt", [USER, ASSISTANT], {"continue_final_message": True, "add_generation_prompt": True}),
        ("None values dropped", [{"role": "user", "content": "hi", "name": None}],
         {"chat_template": "{{ messages[0] | tojson }}{{ messages[0].name is defined }}"}),
        ("dataclass messages", [Message("user", "from a dataclass")], {}),
        ("unknown template name", [USER], {"chat_template": "nonexistent"}),
        ("sandbox attribute", [USER], {"chat_template": ESCAPE_TEMPLATE}),
        ("namespace underscore", [USER], {"chat_template": NAMESPACE_ESCAPE_TEMPLATE}),
        ("syntax error", [USER], {"chat_template": SYNTAX_ERROR_TEMPLATE}),
        ("empty conversation", [], {}),
        ("message not a dict", ["hello"], {}),
        ("documents not dicts", [USER], {"documents": ["text"], "chat_template": JSON_TEMPLATE}),
        ("tool neither dict nor function", [USER], {"tools": ["get_weather"]}),
        ("padded batch", [[USER], chat], {"padding": True}),
        ("padded to max_length", [[USER], [USER_2]], {"padding": "max_length", "max_length": 40}),
        ("truncated", chat, {"truncation": True, "max_length": 9}),
        ("truncated, padded batch", [chat, [USER]], {"truncation": True, "max_length": 20, "padding": True}),
    ]
    return found


@dataclasses.dataclass
class Message:
    """A message given as a dataclass (transformers turns it into a dict)."""

    role: str
    content: str
    name: Optional[str] = None


class Unit(enum.Enum):
    """Temperature units."""

    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


def get_weather(city: str, unit: Unit = Unit.CELSIUS, days: Optional[int] = None,
                hours: list[int] | None = None) -> dict[str, float]:
    """
    Get the weather forecast for a city.

    Args:
        city: The city to look up, for example
            "Paris" or "Zürich".
        unit: The temperature unit.
        days (int): How many days ahead (choices: [1, 2, 3])
        hours: Which hours of the day to report.

    Returns:
        The temperature by hour.
    """
    return {}


def convert(amount: float, pair: tuple[str, str], mode: Literal["exact", "rounded", 1],
            rates: dict[str, float], anything: typing.Any, flag: bool | str = False) -> None:
    """Convert money between currencies.

    Args:
        amount: How much.
        pair: From and to currency codes.
        mode: How to round (choices: ["exact", "rounded"])
        rates: Rates by currency.
        anything: Free-form.
        flag: A flag
            or a word.
    """


class Calculator:
    """A class whose method is a tool (the receiver is not a parameter)."""

    def add(self, a: int, b: int) -> int:
        """Add two numbers.

        Args:
            a: The first number.
            b: The second number.
        """
        return a + b


@pytest.mark.parametrize("label, conversation, options", own_requests(), ids=[r[0] for r in own_requests()])
def test_own_templates_match_auto_tokenizer(label: str, conversation: Any, options: dict[str, Any], backend: str,
                                            phi3_directory: Path, auto_phi3: Any) -> None:
    """Templates written here: text, ids and dict (or the same error) as AutoTokenizer gives them."""
    ours = hfcompat.load(phi3_directory)
    tally = Tally(f"{label} on {backend}")
    # transformers words the namespace's SecurityError itself; Jinja's own errors must read alike
    compare_calls(tally, auto_phi3, ours, label, conversation, worded=label == "namespace underscore", **options)
    tally.assert_clean()


def test_generation_masks_match(backend: str, phi3_directory: Path, auto_phi3: Any) -> None:
    """return_assistant_tokens_mask: the tokens of the {% generation %} blocks, as transformers marks them."""
    ours = hfcompat.load(phi3_directory)
    tally = Tally(f"assistant masks on {backend}")
    chat = [SYSTEM, USER, ASSISTANT, USER_2, {"role": "assistant", "content": "Six.\n"}]
    cut = len(ours.apply_chat_template(chat, return_dict=False)) - 3  # in the final assistant message
    for conversation, options in ((chat, {}), ([chat, chat[:3]], {"padding": True}),
                                  (chat, {"truncation": True, "max_length": cut})):
        request = {"return_assistant_tokens_mask": True, **options}
        expected = result(auto_phi3.apply_chat_template, conversation, **request)
        tally.check(f"{request}", expected, result(ours.apply_chat_template, conversation, **request))
        rows = expected["assistant_masks"] if options.get("padding") else [expected["assistant_masks"]]
        assert all(1 in row for row in rows) and all(0 in row for row in rows)
    for options in ({"tokenize": False}, {"return_dict": False}):  # the mask needs both
        request = {"return_assistant_tokens_mask": True, **options}
        tally.check(f"{request}", result(auto_phi3.apply_chat_template, chat, **request),
                    result(ours.apply_chat_template, chat, **request))
    tally.assert_clean()


def test_python_tools_become_transformers_schemas() -> None:
    """Documented functions turn into the JSON schemas transformers' get_json_schema gives."""
    for tool in (get_weather, convert, Calculator().add):
        assert function_schema(tool) == transformers.utils.get_json_schema(tool)


def bad_tools() -> list[Callable[..., Any]]:
    """Functions transformers cannot describe."""
    def undocumented(x: int) -> int:
        return x

    def undescribed(x: int, y: int) -> int:
        """Adds.

        Args:
            x: The first.
        """
        return x + y

    def unhinted(x) -> int:  # noqa: ANN001 - the missing hint is the point
        """Echo.

        Args:
            x: Anything.
        """
        return x

    def custom(x: Path) -> None:
        """Custom.

        Args:
            x: A path.
        """

    def one_tuple(x: tuple[int]) -> None:
        """One.

        Args:
            x: A tuple.
        """

    return [undocumented, undescribed, unhinted, custom, one_tuple]


@pytest.mark.parametrize("tool", bad_tools(), ids=lambda tool: tool.__name__)
def test_bad_python_tools_fail_alike(tool: Callable[..., Any]) -> None:
    """A function transformers refuses, hfcompat refuses with an exception of the same name."""
    assert result(function_schema, tool)[:2] == result(transformers.utils.get_json_schema, tool)[:2]
    assert result(function_schema, tool)[0] == "raises"


def test_named_templates_without_default(tmp_path: Path) -> None:
    """Templates only in additional_chat_templates/: a dict without "default"; no name given is an error."""
    tokenizer = hfcompat.load(shared_file("refs/phi-3-mini/tokenizer.json"))
    tokenizer.chat_template = {"tool_use": TOOLS_TEMPLATE, "strict": STRICT_TEMPLATE}
    tokenizer.save_pretrained(tmp_path)
    assert not (tmp_path / "chat_template.jinja").exists()
    auto, ours = auto_tokenizer(tmp_path), hfcompat.load(tmp_path)
    assert ours.chat_template == auto.chat_template == tokenizer.chat_template
    tally = Tally("no default")
    for options in ({}, {"tools": [WEATHER_TOOL]}, {"chat_template": "strict"}):
        compare_calls(tally, auto, ours, "no default", [USER, ASSISTANT], **options)
    tally.assert_clean()


def test_config_templates_as_transformers_reads_them(tmp_path: Path) -> None:
    """tokenizer_config.json's chat_template as a list of {name, template}; a chat_template.jinja replaces it."""
    tokenizer = hfcompat.load(shared_file("refs/phi-3-mini/tokenizer.json"))
    tokenizer.save_pretrained(tmp_path)
    config_path = tmp_path / "tokenizer_config.json"
    config = json.loads(config_path.read_text())
    config["chat_template"] = [{"name": "default", "template": DATE_TEMPLATE}, {"name": "strict", "template": STRICT_TEMPLATE}]
    config_path.write_text(json.dumps(config))
    assert hfcompat.load(tmp_path).chat_template == auto_tokenizer(tmp_path).chat_template == {
        "default": DATE_TEMPLATE, "strict": STRICT_TEMPLATE}
    (tmp_path / "chat_template.jinja").write_text("{{ messages[0].content }}\r\n", encoding="utf-8")
    assert hfcompat.load(tmp_path).chat_template == auto_tokenizer(tmp_path).chat_template == \
        "{{ messages[0].content }}\n"


def test_missing_jinja_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without jinja2, rendering raises MissingDependency naming hfcompat's chat extra."""
    monkeypatch.setattr(jinja_sandbox, "jinja2", None)
    jinja_sandbox.compile_template.cache_clear()
    tokenizer = hfcompat.load(shared_file("refs/phi-3-mini/tokenizer.json"))
    with pytest.raises(MissingDependency, match=r"hfcompat\[chat\]"):
        tokenizer.apply_chat_template([USER], chat_template="{{ messages }}")
    jinja_sandbox.compile_template.cache_clear()


def test_strftime_now_is_today(phi3_directory: Path) -> None:
    """strftime_now formats the local time now (transformers' own global, checked against the clock)."""
    ours = hfcompat.load(phi3_directory)
    before = datetime.datetime.now().strftime("%Y-%m-%d")
    text = ours.apply_chat_template([USER], chat_template="{{ strftime_now('%Y-%m-%d') }}", tokenize=False)
    assert text in (before, datetime.datetime.now().strftime("%Y-%m-%d"))


@given(contents=st.lists(texts, min_size=1, max_size=4), prompt=st.booleans(), keep_open=st.booleans())
def test_random_contents(phi3_directory: Path, auto_phi3: Any, contents: list[str], prompt: bool,
                         keep_open: bool) -> None:
    """Random Unicode as the messages' contents (special-token look-alikes, whitespace runs, marks):
    the text, the ids and the assistant masks agree with AutoTokenizer (continuing the final
    message when `keep_open`, which strips it as transformers does)."""
    ours = _phi3_tokenizers.setdefault("ours", hfcompat.load(phi3_directory))
    conversation = [{"role": ("user", "assistant")[i % 2], "content": text} for i, text in enumerate(contents)]
    options: dict[str, Any] = {"continue_final_message": True} if keep_open else {"add_generation_prompt": prompt}
    for extra in ({"tokenize": False}, {"return_dict": False},
                  {} if keep_open else {"return_assistant_tokens_mask": True}):
        request = {**options, **extra}
        assert result(ours.apply_chat_template, conversation, **request) == \
            result(auto_phi3.apply_chat_template, conversation, **request), request


_phi3_tokenizers: dict[str, Any] = {}
