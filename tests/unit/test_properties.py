"""Invariants of the sinusoidal table, checked on many shapes by hypothesis."""

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from course_lib import sinusoidal_table

sizes = st.integers(min_value=1, max_value=300)
widths = st.integers(min_value=1, max_value=96)
bases = st.floats(min_value=2.0, max_value=1e5)

settings.register_profile("course", max_examples=60, deadline=None)
settings.load_profile("course")


@given(n=sizes, d=widths, base=bases)
def test_shape_dtype_and_range(n, d, base):
    pe = sinusoidal_table(n, d, base)
    assert pe.shape == (n, d) and pe.dtype == torch.float32
    assert pe.abs().max() <= 1.0


@given(n=sizes, d=widths, base=bases)
def test_each_sin_cos_pair_lies_on_the_unit_circle(n, d, base):
    pe = sinusoidal_table(n, d, base, dtype=torch.float64)
    pairs = pe[:, : 2 * (d // 2)].reshape(n, d // 2, 2)  # (n, pairs, [sin, cos])
    torch.testing.assert_close(pairs.pow(2).sum(-1), torch.ones(n, d // 2, dtype=torch.float64))


@given(d=widths, base=bases, k=st.integers(0, 200), data=st.data())
def test_offset_k_is_the_same_rotation_at_every_position(d, base, k, data):
    """PE[pos + k] = R(k) PE[pos] for each frequency pair, with R(k) independent of pos."""
    pe = sinusoidal_table(400, d, base, dtype=torch.float64)
    pos = data.draw(st.lists(st.integers(0, 399 - k), min_size=1, max_size=5))
    i = torch.arange(0, d - d % 2, 2, dtype=torch.float64)
    theta = k / base ** (i / d)  # rotation angle of each pair after k steps
    cos, sin = torch.cos(theta), torch.sin(theta)
    for p in pos:
        s, c = pe[p, 0 : d - d % 2 : 2], pe[p, 1::2]
        # sin(a + t) = sin a cos t + cos a sin t;  cos(a + t) = cos a cos t - sin a sin t
        torch.testing.assert_close(pe[p + k, 0 : d - d % 2 : 2], s * cos + c * sin)
        torch.testing.assert_close(pe[p + k, 1::2], c * cos - s * sin)


@given(n=sizes, d=widths)
def test_float32_table_is_the_rounded_float64_table(n, d):
    torch.testing.assert_close(sinusoidal_table(n, d), sinusoidal_table(n, d, dtype=torch.float64).float())


@given(n=st.integers(2, 300), d=st.integers(2, 96), base=bases)
def test_dot_product_depends_only_on_the_offset(n, d, base):
    pe = sinusoidal_table(n, d - d % 2, base, dtype=torch.float64)
    sim = pe @ pe.T  # (n, n)
    for k in range(min(n, 5)):
        diag = torch.diagonal(sim, offset=k)
        torch.testing.assert_close(diag, diag[:1].expand_as(diag))
