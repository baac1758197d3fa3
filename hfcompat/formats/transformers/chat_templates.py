"""The chat templates of a transformers directory, read and written where transformers 5 keeps them.

Reading, as AutoTokenizer does: chat_template.jinja is the default template and each
additional_chat_templates/<name>.jinja a named one; when any of these files exists they replace
tokenizer_config.json's "chat_template" (a template, or a list of {"name", "template"}). One
default alone is a string; several templates are a dict name -> template. Writing, as
transformers' save_pretrained does: the default (or only) template to chat_template.jinja and the
named ones to additional_chat_templates/, none in the config.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Mapping, Union

from ...errors import FormatError

TEMPLATE_FILE = "chat_template.jinja"
TEMPLATES_FOLDER = "additional_chat_templates"
DEFAULT = "default"

ChatTemplates = Union[str, dict[str, str], None]


def read_chat_templates(directory: Path, config: dict[str, Any]) -> ChatTemplates:
    """The directory's chat template(s): from the .jinja files when there are any, else the config's."""
    found: dict[str, str] = {}
    if (directory / TEMPLATE_FILE).is_file():
        found[DEFAULT] = _read_text(directory / TEMPLATE_FILE)
    folder = directory / TEMPLATES_FOLDER
    if folder.is_dir():
        for path in sorted(folder.glob("*.jinja")):
            found[path.name[:-len(".jinja")]] = _read_text(path)
    if list(found) == [DEFAULT]:
        return found[DEFAULT]
    if found:
        return found
    return config_templates(config.get("chat_template"), directory)


def config_templates(value: Any, directory: Path) -> ChatTemplates:
    """tokenizer_config.json's "chat_template": a string, or a list of {"name", "template"} as a dict."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (list, tuple)):
        try:
            return {entry["name"]: entry["template"] for entry in value}
        except (KeyError, TypeError):
            raise FormatError('expected a template or a list of {"name", "template"} objects',
                              path=str(directory / "tokenizer_config.json"), field="chat_template") from None
    warnings.warn(f"{directory / 'tokenizer_config.json'}: chat_template is a {type(value).__name__}, not a template "
                  "or a list of named templates; left out (transformers keeps it and fails when it renders)",
                  UserWarning, stacklevel=3)
    return None


def chat_template_files(templates: ChatTemplates) -> dict[str, str]:
    """file name (relative to the directory) -> text, for the templates save_pretrained writes."""
    if templates is None:
        return {}
    if isinstance(templates, str):
        return {TEMPLATE_FILE: templates}
    files = {}
    for name, template in templates.items():
        if name == DEFAULT:
            files[TEMPLATE_FILE] = template
            continue
        if not name or "/" in name or "\\" in name or name in (".", "..") or name.startswith("."):
            raise ValueError(f"chat template name {name!r} cannot be a file name in {TEMPLATES_FOLDER}/")
        files[f"{TEMPLATES_FOLDER}/{name}.jinja"] = template
    return files


def _read_text(path: Path) -> str:
    """A template file's text (UTF-8, line ends read as transformers' text-mode open reads them)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise FormatError(f"not UTF-8 ({error.reason} at byte {error.start})", path=str(path)) from None
