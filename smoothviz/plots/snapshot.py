"""An offline snapshot of one view: a single HTML file that opens with no server and no network.

Title, story sentence, every figure as interactive plotly (plotly.js inlined once from the package),
captions, parameters, the "Reproduce in Python" code and the link back to the live view.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go
import plotly.io as pio

__all__ = ["snapshot_html"]

_STYLE = """
body { font-family: "Source Sans Pro", Arial, sans-serif; max-width: 1100px; margin: 2rem auto;
       padding: 0 1rem; color: #111; line-height: 1.45; }
h1 { font-size: 1.9rem; margin-bottom: 0.3rem; }
.caption { color: #555; font-size: 0.95rem; margin: 0.2rem 0 1.6rem 0; }
table { border-collapse: collapse; margin: 0.5rem 0 1.2rem 0; }
td, th { border: 1px solid #ddd; padding: 0.2rem 0.6rem; text-align: left; }
pre { background: #f5f5f5; padding: 0.8rem; overflow-x: auto; }
"""


def snapshot_html(
    *,
    title: str,
    watch: str,
    figures: Sequence[tuple[go.Figure, str]],
    params: Mapping[str, str],
    code: str,
    link: str,
) -> str:
    """A view as one self-contained HTML page; ``figures``: ``(figure, caption)`` in the page's order."""
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p><b>Watch:</b> {html.escape(watch)}</p>",
        f"<p>Live view: <a href='{html.escape(link, quote=True)}'>{html.escape(link)}</a></p>",
    ]
    for i, (fig, caption) in enumerate(figures):
        parts.append(
            pio.to_html(
                fig,
                full_html=False,
                include_plotlyjs=i == 0,  # True inlines plotly.js from the package: no network
                config={"displaylogo": False, "responsive": True},
            )
        )
        parts.append(f"<p class='caption'>{html.escape(caption)}</p>")
    rows = "".join(
        f"<tr><td><code>{html.escape(k)}</code></td><td>{html.escape(v)}</td></tr>"
        for k, v in params.items()
    )
    parts += [
        "<h2>Parameters</h2>",
        f"<table><tr><th>parameter</th><th>value</th></tr>{rows}</table>",
        "<h2>Reproduce in Python</h2>",
        f"<pre><code>{html.escape(code)}</code></pre>",
        "</body></html>",
    ]
    return "\n".join(parts)
