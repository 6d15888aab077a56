"""Every bound drawn on a page is registered with its source and kind."""

from __future__ import annotations

import numpy as np
import pytest

from smoothviz import bounds
from smoothviz.bounds import info as bound_info
from smoothviz.bounds import online as online_bounds
from smoothviz.bounds import privacy as privacy_bounds


def test_every_registered_bound_has_a_function_a_source_and_a_kind():
    assert bounds.BOUNDS
    for key, info in bounds.BOUNDS.items():
        assert key == info.key
        assert callable(getattr(online_bounds, key, None) or getattr(privacy_bounds, key, None)), (
            key
        )
        assert info.kind in bound_info.KINDS
        assert info.source
        assert info.refs
        assert len(info.wheres) == len(info.refs)
        assert info.latex
        assert info.title


def test_unknown_kind_is_rejected():
    with pytest.raises(ValueError, match="kind"):
        bound_info.BoundInfo("k", "t", "x", "hrs2020", "Thm 3.3", "probably", "n")


def test_threshold_bounds():
    t = np.array([1, 8, 1024])
    assert np.array_equal(online_bounds.worst_case_mistakes(t), t.astype(float))
    assert online_bounds.smoothed_mistakes_envelope(0.25, 8) == pytest.approx(2 + 3 + 4)
    assert np.allclose(online_bounds.hit_probability([0.5, 0.01], 0.1), [1.0, 0.1])
    assert privacy_bounds.is_vacuous(1.2)
    assert not privacy_bounds.is_vacuous(0.3)
