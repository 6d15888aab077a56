from __future__ import annotations

import itertools

import numpy as np
import pytest

from smoothviz.privacy import separators as sp


@pytest.mark.parametrize("cls", sp.CLASSES)
def test_separator_sets_separate_every_pair_up_to_d10(cls):
    for d in range(1, 11):
        u = sp.separator_set(cls, d)
        assert u.shape == (d, d)
        assert sp.separates(cls, u)


@pytest.mark.parametrize("cls", sp.CLASSES)
def test_separates_is_the_pairwise_definition(cls):
    d = 4
    codes = sp.all_codes(d)
    for u in (sp.separator_set(cls, d), sp.separator_set(cls, d)[:3], 1 - sp.separator_set(cls, d)):
        table = sp.labels_on(cls, u, codes)
        pairwise = all(
            np.any(table[:, a] != table[:, b]) for a, b in itertools.combinations(range(2**d), 2)
        )
        assert sp.separates(cls, u) == pairwise
    # dropping a point always loses separation (|Q| = 2^d needs d points)
    assert not sp.separates(cls, sp.separator_set(cls, d)[:3])


def test_worked_example_d3_s13():
    code = 0b101  # S = {1, 3}
    for cls, u_labels in [
        ("conjunction", [0, 1, 0]),
        ("disjunction", [1, 0, 1]),
        ("parity", [1, 0, 1]),
    ]:
        table = sp.labels_on(cls, sp.separator_set(cls, 3), np.array([code]))
        assert table[:, 0].tolist() == u_labels
    assert sp.describe("conjunction", code, 3) == "x1 ∧ x3"


def test_evaluate_matches_the_definitions():
    rng = np.random.default_rng(0)
    d = 6
    x = rng.integers(0, 2, (50, d))
    bits = rng.integers(0, 2, (20, d))
    for cls in sp.CLASSES:
        h = sp.evaluate(cls, x, bits)
        for i, k in itertools.product(range(50), range(20)):
            s = x[i][bits[k] == 1]
            want = {
                "conjunction": int(np.all(s == 1)),
                "disjunction": int(np.any(s == 1)),
                "parity": int(s.sum() % 2),
                "halfspace": int((2 * bits[k] - 1) @ x[i] >= 1),
            }[cls]
            assert h[i, k] == want


def test_loss_separator_claim1():
    # q_h((u, 0)) = h(u): the loss queries are separated by the points labelled 0
    for cls in sp.CLASSES:
        u, y = sp.loss_separator_set(cls, 5)
        codes = sp.all_codes(5)
        assert np.array_equal(sp.loss_matrix(cls, u, y, codes), sp.labels_on(cls, u, codes))


def test_codes_round_trip_and_validation():
    codes = np.arange(64)
    assert np.array_equal(sp.bits_to_codes(sp.codes_to_bits(codes, 6)), codes)
    with pytest.raises(ValueError, match="`cls` must be one of"):
        sp.separator_set("dnf", 3)
    with pytest.raises(ValueError, match="`d` must be an integer"):
        sp.separator_set("parity", 0)


@pytest.mark.parametrize("cls", sp.CLASSES)
@pytest.mark.parametrize("d", [1, 2, 5, 9])
def test_class_sums_equal_the_full_table_product(cls, d):
    # the transforms over the subset lattice must equal Σ_x c_x h(x) from the 2^d × 2^d label table
    rng = np.random.default_rng(d)
    points = sp.codes_to_bits(np.arange(2**d), d)
    table = sp.evaluate(cls, points, points).astype(float)  # rows: points, columns: hypotheses
    counts = rng.integers(-7, 8, size=(3, 2**d)).astype(float)
    assert np.array_equal(sp.class_sums(cls, counts, d), counts @ table)  # exact on integers
    weights = rng.normal(size=2**d)
    np.testing.assert_allclose(sp.class_sums(cls, weights, d), weights @ table, atol=1e-9)


def test_class_sums_refuse_a_wrong_length():
    with pytest.raises(ValueError, match="2\\^d"):
        sp.class_sums("conjunction", np.zeros(7), 3)
