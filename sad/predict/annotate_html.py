"""The annotated source view as one self-contained HTML page (sad.predict.annotate → this handler), like
gcovr's --html-details: a table per file with count, time and share of each line, the line's background
shaded by its share of the time; no script, no external file."""
from __future__ import annotations

import html

from sad import __version__
from sad.common.timetext import seconds
from sad.predict.annotate import Annotation
from sad.predict.annotate_text import count_text

_STYLE = """
body { font-family: sans-serif; margin: 1.5em; }
table { border-collapse: collapse; font-size: 13px; }
td, th { padding: 0 0.6em; white-space: pre; }
th { text-align: right; border-bottom: 1px solid #888; }
td.n { text-align: right; color: #444; }
td.src { font-family: monospace; text-align: left; }
tr.never td.n:first-child { color: #b00; }
tr.none td { color: #888; }
"""


def render(annotation: Annotation) -> str:
    """The page: a heading per file, a summary, one table row per source line."""
    total = annotation.total
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>sad annotate: {html.escape(', '.join(f.path for f in annotation.files))}</title>",
             f"<style>{_STYLE}</style></head><body>",
             f"<h1>Predicted counts and time per line on {html.escape(annotation.machine)}</h1>",
             "<p>" + (f"Predicted time {html.escape(seconds(total))} (the machine's start-up of a run included)."
                      if total is not None else
                      "Unbound: " + html.escape(", ".join(annotation.unbound)) + "; times are given where the "
                      "counts are bound.") + f" sad {__version__}.</p>"]
    for f in annotation.files:
        parts.append(f"<h2>{html.escape(f.path)}</h2><p>{html.escape(seconds(f.seconds))} on its lines.</p>")
        parts.append("<table><tr><th>count</th><th>time</th><th>share</th><th>line</th>"
                     '<th style="text-align:left">source</th></tr>')
        for line in f.lines:
            share = line.seconds / total if line.seconds is not None and total else None
            kind = "none" if line.count is None else "never" if line.count == 0 else "run"
            shade = f' style="background: rgba(255, 80, 0, {min(1.0, share * 2):.3f})"' if share else ""
            parts.append(
                f'<tr class="{kind}"{shade}><td class="n">{html.escape(count_text(line))}</td>'
                f'<td class="n">{html.escape(seconds(line.seconds)) if line.seconds is not None else "-"}</td>'
                f'<td class="n">{f"{100 * share:.1f}%" if share is not None else "-"}</td>'
                f'<td class="n" id="{html.escape(f.path)}:{line.number}">{line.number}</td>'
                f'<td class="src">{html.escape(line.text)}</td></tr>')
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
