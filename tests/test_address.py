"""The kit knows a run started by the browser's Back or Forward from the run's context (no browser).

The whole of Back depends on this one flag (the address is read again only then): a misspelt
attribute read with a default is silently ``False``, and Back then keeps the newest values.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

from smoothviz.ui import address


def test_a_back_or_forward_run_is_told_from_streamlits_own_flag(monkeypatch):
    flag = "is_history_navigation"
    assert flag in {f.name for f in dataclasses.fields(ScriptRunContext)}
    for value in (True, False):
        ctx = SimpleNamespace(**{flag: value})
        monkeypatch.setattr(address, "get_script_run_ctx", lambda ctx=ctx: ctx)
        assert address.history_navigation() is value
    monkeypatch.setattr(address, "get_script_run_ctx", lambda: None)
    assert address.history_navigation() is False
