"""Plotly figure builders: a result object in, a ``go.Figure`` out, never any Streamlit call.

One module per topic; all share the palette and fonts of :mod:`smoothviz.plots.style`.
"""
