"""Randomness, one convention (SPEC 7): an ``rng`` argument that is a seed or a Generator, and named child streams.

Every core function that draws takes a keyword ``rng`` (:func:`make_rng`); the independent parts of
an experiment (data, adversary, learner, noise) draw from children named by role (:func:`streams`),
so a page's numbers come back from its visible seed. No legacy ``numpy.random.*`` (ruff ``NPY002``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["RngLike", "make_rng", "streams"]

#: What an ``rng`` argument accepts.
RngLike = int | np.integer | Sequence[int] | np.random.SeedSequence | np.random.Generator | None


def make_rng(rng: RngLike = None) -> np.random.Generator:
    """The Generator of an ``rng`` argument: :func:`numpy.random.default_rng` (a Generator passes through)."""
    return np.random.default_rng(rng)


def streams(rng: RngLike, roles: Sequence[str]) -> dict[str, np.random.Generator]:
    """``{role: Generator}``: independent children of ``rng`` (``Generator.spawn``), one per distinct role.

    The k-th role gets the k-th child: a role appended later leaves the earlier streams unchanged.
    """
    roles = tuple(roles)
    if len(set(roles)) != len(roles):
        raise ValueError(f"`roles` must be distinct, got {roles!r}")
    return dict(zip(roles, make_rng(rng).spawn(len(roles)), strict=True))
