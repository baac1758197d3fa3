"""The results of an evaluation (counts and measures per tokenizer and per script), and how they
are shown: a terminal table, and a self-contained HTML page with inline SVG charts."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from .scripts import ALL_CLASSES, SCRIPTS

COLUMNS = [
    ("tokenizer", "name"), ("vocab", "vocab_size"), ("tokens", "tokens"),
    ("tok/char", "tokens_per_char"), ("bytes/tok", "bytes_per_token"), ("fertility", "fertility"),
    ("split", "split_share"), ("unk", "unk_rate"), ("bytefb", "byte_fallback_rate"),
    ("vocab used", "vocab_used"), ("MB/s", "mb_per_s"), ("peak MB", "peak_mb"),
]
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"]
CHART_MEASURES = [("tokens_per_char", "tokens per character (lower is better)"),
                  ("fertility", "tokens per word (fertility)"),
                  ("split_share", "share of words split into several tokens")]


@dataclass
class Counts:
    """Totals for one tokenizer, overall or for one script."""

    tokens: float = 0.0
    chars: int = 0
    bytes: int = 0
    words: int = 0
    split_words: int = 0
    ids: set[int] = field(default_factory=set)

    def measures(self, vocab_size: int) -> dict[str, Any]:
        """The derived ratios next to the totals (None where a ratio has no denominator)."""
        return {
            "tokens": _number(self.tokens), "chars": self.chars, "bytes": self.bytes,
            "words": self.words,
            "tokens_per_char": _ratio(self.tokens, self.chars),
            "bytes_per_token": _ratio(self.bytes, self.tokens),
            "fertility": _ratio(self.tokens, self.words),
            "split_share": _ratio(self.split_words, self.words),
            "vocab_used": _ratio(len(self.ids), vocab_size),
        }


@dataclass
class Report:
    """The evaluation of one tokenizer."""

    name: str
    vocab_size: int
    total: Counts = field(default_factory=Counts)
    by_script: dict[str, Counts] = field(default_factory=lambda: {c: Counts() for c in ALL_CLASSES})
    texts: int = 0
    unk: int = 0
    byte_fallback: int = 0
    seconds: float = 0.0
    peak_bytes: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: overall measures, rates, speed and the per-script measures."""
        data: dict[str, Any] = {"name": self.name, "vocab_size": self.vocab_size, "texts": self.texts}
        data.update(self.total.measures(self.vocab_size))
        tokens = self.total.tokens
        data["unk_rate"] = _ratio(self.unk, tokens) or 0.0
        data["byte_fallback_rate"] = _ratio(self.byte_fallback, tokens) or 0.0
        data["mb_per_s"] = _ratio(self.total.bytes / 1e6, self.seconds)
        data["peak_mb"] = None if self.peak_bytes is None else round(self.peak_bytes / 1e6, 3)
        data["by_script"] = {name: counts.measures(self.vocab_size)
                             for name, counts in self.by_script.items() if counts.tokens or counts.chars}
        return data


@dataclass
class Evaluation:
    """The reports of several tokenizers on the same texts."""

    reports: list[Report]

    def to_dict(self) -> dict[str, Any]:
        """{"tokenizers": [report, ...]}, as `hfcompat evaluate --json` prints it."""
        return {"tokenizers": [report.to_dict() for report in self.reports]}

    def table(self) -> str:
        """A plain-text table of the main measures, one row per tokenizer."""
        return text_table(self)

    def to_html(self) -> str:
        """A self-contained HTML page with the tables and per-script SVG charts."""
        return html_page(self)


def cell(value: Any) -> str:
    """A table cell: floats with 3 decimals (4 below 0.1), None as '-'."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < 0.1 else f"{value:.3f}"
    return str(value)


def _rows(evaluation: Evaluation) -> list[list[str]]:
    """The overall table: a header row, then one row per tokenizer."""
    reports = [report.to_dict() for report in evaluation.reports]
    return [[title for title, _ in COLUMNS]] + [[cell(data[key]) for _, key in COLUMNS] for data in reports]


def _script_rows(evaluation: Evaluation, measure: str) -> list[list[str]]:
    """One measure per script (rows) and tokenizer (columns), for scripts present in the texts."""
    reports = [report.to_dict() for report in evaluation.reports]
    present = [s for s in SCRIPTS if any(s in data["by_script"] for data in reports)]
    rows = [["script", *(data["name"] for data in reports)]]
    for script in present:
        rows.append([script, *(cell(data["by_script"].get(script, {}).get(measure)) for data in reports)])
    return rows


def _aligned(rows: list[list[str]]) -> str:
    """Rows as aligned text columns (the first left-aligned, the rest right-aligned)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for index, row in enumerate(rows):
        cells = [c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def text_table(evaluation: Evaluation) -> str:
    """The overall table and the tokens-per-character table per script."""
    return (_aligned(_rows(evaluation)) + "\n\ntokens per character, by script:\n"
            + _aligned(_script_rows(evaluation, "tokens_per_char")))


def markdown(rows: list[list[str]]) -> str:
    """Rows (the first a header) as a Markdown table."""
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows[1:]])


def markdown_table(evaluation: Evaluation) -> str:
    """The overall table in Markdown (for the README)."""
    return markdown(_rows(evaluation))


def markdown_by_script(evaluation: Evaluation, measure: str = "tokens_per_char") -> str:
    """One measure per script and tokenizer, in Markdown."""
    return markdown(_script_rows(evaluation, measure))


def _html_table(rows: list[list[str]], css_class: str) -> str:
    """Rows as an HTML table with a header row."""
    head = "".join(f"<th>{escape(c)}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows[1:])
    return f'<table class="{css_class}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def bar_chart(evaluation: Evaluation, measure: str, title: str) -> str:
    """Grouped horizontal bars: one group per script, one bar per tokenizer, as inline SVG."""
    reports = [report.to_dict() for report in evaluation.reports]
    scripts = [s for s in SCRIPTS if any(data["by_script"].get(s, {}).get(measure) is not None
                                         for data in reports)]
    values = [data["by_script"].get(s, {}).get(measure) or 0.0 for s in scripts for data in reports]
    top = max(values, default=0.0) or 1.0
    bar, gap, label_width, plot_width = 14, 10, 90, 420
    group = bar * len(reports) + gap
    height = 30 + group * len(scripts) + 20 * len(reports)
    parts = [f'<svg class="chart" data-measure="{measure}" xmlns="http://www.w3.org/2000/svg" '
             f'width="{label_width + plot_width + 80}" height="{height}">',
             f'<text x="0" y="16" font-weight="bold">{escape(title)}</text>']
    for g, script in enumerate(scripts):
        y0 = 30 + g * group
        parts.append(f'<text x="0" y="{y0 + bar * len(reports) / 2 + 4}">{script}</text>')
        for r, data in enumerate(reports):
            value = data["by_script"].get(script, {}).get(measure) or 0.0
            width = plot_width * value / top
            y = y0 + r * bar
            parts.append(f'<rect x="{label_width}" y="{y}" width="{width:.1f}" height="{bar - 2}" '
                         f'fill="{PALETTE[r % len(PALETTE)]}"><title>{escape(data["name"])} {script}: '
                         f'{cell(value)}</title></rect>')
            parts.append(f'<text x="{label_width + width + 4:.1f}" y="{y + bar - 4}" '
                         f'font-size="10">{cell(value)}</text>')
    legend_y = 30 + group * len(scripts)
    for r, data in enumerate(reports):
        y = legend_y + 20 * r
        parts.append(f'<rect x="{label_width}" y="{y}" width="12" height="12" fill="{PALETTE[r % len(PALETTE)]}"/>')
        parts.append(f'<text x="{label_width + 18}" y="{y + 11}">{escape(data["name"])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def html_page(evaluation: Evaluation) -> str:
    """The whole report page: no scripts, no external assets."""
    charts = "".join(f"<figure>{bar_chart(evaluation, m, t)}</figure>" for m, t in CHART_MEASURES)
    tables = "".join(f"<h3>{escape(t)}</h3>" + _html_table(_script_rows(evaluation, m), "by-script")
                     for m, t in CHART_MEASURES)
    return (
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>hfcompat evaluation</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child{text-align:left}"
        "svg text{font-family:sans-serif;font-size:12px}</style></head><body>"
        "<h1>Tokenizer evaluation</h1><h2>Overall</h2>" + _html_table(_rows(evaluation), "overall")
        + "<h2>By script</h2>" + charts + tables + "</body></html>")


def _number(value: float) -> float | int:
    """An int when the value is whole (token totals), else rounded to 6 places."""
    return int(value) if float(value).is_integer() else round(value, 6)


def _ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator rounded to 6 places, None when the denominator is 0."""
    return round(numerator / denominator, 6) if denominator else None
