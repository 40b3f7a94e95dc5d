"""Pieces of the report pages: a self-contained HTML document, escaping,
tables and the glossary.

Every page carries a Content-Security-Policy that forbids scripts and any
network load (styles are inline, images are data: URIs): model text is
hostile, so besides escaping every text, a page could not run or fetch
anything even if a text slipped through.
"""

from __future__ import annotations

import base64
import html

from . import glossary

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

CSS = """
body{font-family:system-ui,sans-serif;max-width:76rem;margin:1.5rem auto;padding:0 1rem;\
color:#222;line-height:1.4}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}h3{font-size:1.05rem}
pre{background:#f6f6f6;padding:.5rem;overflow-x:auto;white-space:pre-wrap;word-break:break-word;\
margin:.3rem 0}
table{border-collapse:collapse;margin:.5rem 0}\
td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:#1a7f1a}.fail{color:#c62828}.muted{color:#777}
dl.glossary{display:grid;grid-template-columns:max-content auto;gap:.2rem 1rem;font-size:.9rem}
dl.glossary dt{font-weight:600}dl.glossary dd{margin:0}
summary{cursor:pointer}nav a{margin-right:.8rem}
img.plot{max-width:100%;height:auto}
.msg{border-left:4px solid #ccc;margin:.6rem 0;padding:.1rem .8rem}.msg.system{border-color:#999}
.msg.user{border-color:#1f77b4}.msg.assistant{border-color:#2ca02c}.msg.tool{border-color:#ff7f0e}
section.milestone{background:#fffbe6;border:1px solid #e5d88a;padding:.1rem 1rem .6rem;\
margin:1.5rem 0}
"""


def esc(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def num(value: object, digits: int = 1, signed: bool = False) -> str:
    """A number for a table cell ('–' when unknown)."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
    return str(value)


def page(title: str, body: str, generator: str = "alienworlds") -> str:
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='generator' content='{esc(generator)}'>"
        f"<meta http-equiv='Content-Security-Policy' content=\"{CSP}\">"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{esc(title)}</title><style>{CSS}</style></head>\n<body>\n{body}\n</body></html>\n"
    )


def table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    """A table of already-escaped cells; a cell starting with '<td' is used as is."""
    out = [
        f"<table class='{esc(cls)}'><thead><tr>"
        + "".join(f"<th>{h}</th>" for h in head)
        + "</tr></thead><tbody>"
    ]
    for row in rows:
        out.append(
            "<tr>" + "".join(c if c.startswith("<td") else f"<td>{c}</td>" for c in row) + "</tr>"
        )
    out.append("</tbody></table>")
    return "".join(out)


def mapping(data: dict) -> str:
    """A key/value table of a small dict (nested values as nested tables)."""
    rows = []
    for key, value in data.items():
        if isinstance(value, dict) and value:
            shown = mapping(value)
        elif isinstance(value, list):
            shown = ", ".join(f"<code>{esc(num(v))}</code>" for v in value) or "–"
        else:
            shown = f"<code>{esc(num(value))}</code>"
        rows.append([f"<b>{esc(key)}</b>", shown])
    return table(["field", "value"], rows, "mapping")


def glossary_html(*names: str) -> str:
    return (
        "<dl class='glossary'>"
        + "".join(f"<dt>{esc(n)}</dt><dd>{esc(t)}</dd>" for n, t in glossary.terms(*names))
        + "</dl>"
    )


def image(data: bytes, mime: str, alt: str) -> str:
    return (
        f"<img class='plot' alt='{esc(alt)}' "
        f"src='data:{mime};base64,{base64.b64encode(data).decode('ascii')}'>"
    )
