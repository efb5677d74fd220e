"""The random generator (`torch.Generator`): PyTorch's CPU algorithms, so seeds reproduce values.

PyTorch draws from a 32-bit Mersenne Twister (mt19937) and turns the raw words into numbers
with fixed recipes: 24 (float32) or 53 (float64) random bits for uniforms; Box-Muller for
normals, one pair at a time (keeping the spare) below 16 elements and in blocks of 16 from 16
on; `word % range` for integers; a Fisher-Yates shuffle for permutations. numpy's legacy
`RandomState` seeds mt19937 the same way, so only the recipes are written here. After
`torch.manual_seed(0)`, `torch.randn(3)` gives PyTorch's `[1.5410, -0.2934, -2.1788]`.
"""
from __future__ import annotations

import math

import numpy as np

from . import _libm

DEFAULT_SEED = 67280421310721      # PyTorch's default CPU seed
# the message a random draw raises while vmap refuses randomness (randomness="error"), or None
refuse: list = [None]
_F32 = np.float32


class Generator:
    """mt19937 state plus PyTorch's cached spare normal.

    Example:
        >>> g = Generator().manual_seed(0)
        >>> [round(float(v), 4) for v in g.normal(3, np.float32, 0.0, 1.0)]
        [1.541, -0.2934, -2.1788]
    """

    def __init__(self, seed: int = DEFAULT_SEED) -> None:
        self.manual_seed(seed)

    def manual_seed(self, seed: int) -> "Generator":
        self._seed = int(seed)
        self._mt = np.random.RandomState(int(seed) & 0xFFFFFFFF)
        self._spare = None        # PyTorch's next_double_normal_sample
        return self

    def initial_seed(self) -> int:
        return self._seed

    def snapshot(self) -> tuple:
        """Everything the next draws depend on (checkpoint replays a forward from it)."""
        return self._mt.get_state(), self._spare

    def restore(self, snap: tuple) -> None:
        self._mt.set_state(snap[0])
        self._spare = snap[1]

    # ---- raw words ----------------------------------------------------------------------
    def random32(self, n: int) -> np.ndarray:
        if refuse[0] is not None:
            raise RuntimeError(refuse[0])
        return self._mt._bit_generator.random_raw(n).astype(np.uint64)

    def random64(self, n: int) -> np.ndarray:
        w = self.random32(2 * n)
        return (w[0::2] << np.uint64(32)) | w[1::2]

    # ---- distributions ------------------------------------------------------------------
    def uniform(self, n: int, dtype, low: float, high: float) -> np.ndarray:
        """U[low, high) as ATen's uniform_real_distribution computes it."""
        if np.dtype(dtype) == np.float64:
            x = (self.random64(n) & np.uint64((1 << 53) - 1)) * 2.0 ** -53
            return x * (high - low) + low
        lo, span = _F32(low), _F32(_F32(high) - _F32(low))
        x = (self.random32(n) & np.uint64((1 << 24) - 1)) * 2.0 ** -24
        return (x * float(span) + float(lo)).astype(dtype)

    def normal(self, n: int, dtype, mean: float, std: float) -> np.ndarray:
        """N(mean, std**2): pairwise with a kept spare below 16 values, blocks of 16 above."""
        if n >= 16:
            return self._normal_blocks(n, np.dtype(dtype), mean, std)
        out = np.empty(n, dtype=np.float64)
        for i in range(n):
            out[i] = self._one_normal() * std + mean
        return out.astype(dtype)

    def _one_normal(self) -> float:
        if self._spare is not None:
            v, self._spare = self._spare, None
            return v
        u1, u2 = self.uniform(2, np.float64, 0.0, 1.0)
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self._spare = r * math.sin(theta)
        return r * math.cos(theta)

    def _normal_blocks(self, n: int, dtype, mean: float, std: float) -> np.ndarray:
        data = self.uniform(n, dtype, 0.0, 1.0)
        full = n // 16 * 16
        data[:full] = _fill16(data[:full], dtype, mean, std)
        if n % 16:
            # PyTorch redraws the last 16 values and transforms them again
            data[n - 16:] = _fill16(self.uniform(16, dtype, 0.0, 1.0), dtype, mean, std)
        return data

    def bernoulli(self, n: int, p) -> np.ndarray:
        """n booleans, each a uniform draw below p (ATen's bernoulli_distribution): 53-bit
        draws for a Python float or float64 probabilities, 24-bit ones for float32 ones."""
        single = isinstance(p, np.ndarray) and p.dtype != np.float64
        return self.uniform(n, np.float32 if single else np.float64, 0.0, 1.0) < p

    def exponential(self, n: int, dtype, lambd: float) -> np.ndarray:
        """Exp(lambd) as ATen's CPU kernel draws it: -1/lambd * log1p(-u), u a 53-bit uniform."""
        u = self.uniform(n, np.float64, 0.0, 1.0)
        return (-1.0 / lambd * _libm.apply(math.log1p, -u)).astype(dtype)

    def integers(self, low: int, high: int, n: int) -> np.ndarray:
        """low + word % (high - low), with 64-bit words when the range needs them."""
        span = high - low
        words = self.random64(n) if span >= 1 << 32 else self.random32(n)
        return (words % np.uint64(span)).astype(np.int64) + low

    def permutation(self, n: int) -> np.ndarray:
        r = np.arange(n, dtype=np.int64)
        words = self.random32(max(n - 1, 0))
        for i in range(n - 1):
            z = int(words[i] % np.uint64(n - i))
            r[i], r[z + i] = r[z + i], r[i]
        return r


def _fill16(u: np.ndarray, dtype, mean: float, std: float) -> np.ndarray:
    """Box-Muller on blocks of 16 uniforms: element j pairs with j + 8, in the tensor's type.

    float32 follows PyTorch's AVX2 kernel (Cephes-style log/sincos polynomials in float32, then
    one fused multiply-add); float64 follows its scalar kernel (libm in double)."""
    t = dtype.type
    blocks = u.reshape(-1, 2, 8)
    u1 = (t(1) - blocks[:, 0]).astype(dtype)
    u2 = blocks[:, 1]
    if dtype == np.float32:
        radius = np.sqrt(_F32(-2) * _log_f32(u1))
        sin, cos = _sincos_f32((_F32(2 * math.pi) * u2).astype(_F32))
    else:
        radius = np.sqrt(-2 * _libm.apply(math.log, u1))
        theta = 2 * math.pi * u2
        sin, cos = np.sin(theta), np.cos(theta)
    both = np.stack([radius * cos, radius * sin], axis=1).astype(dtype)
    # n * std + mean as one fused multiply-add: exact product in float64, one rounding
    return (both.astype(np.float64) * std + mean).astype(dtype).reshape(-1)


# The float32 polynomials below reproduce the vectorised log and sincos PyTorch's AVX2 normal
# kernel uses (Cephes coefficients, one float32 rounding per step); numpy's own float32
# log/sin/cos differ from them in the last bit for a good share of inputs.
_LOG_P = (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
          1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
          3.3333331174e-1)


def _log_f32(x: np.ndarray) -> np.ndarray:
    """Natural log of positive float32 values: split off the exponent, then a polynomial."""
    bits = np.maximum(x, _F32(1.17549435e-38)).astype(_F32).view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(_F32) + _F32(1)
    m = ((bits & ~0x7F800000) | np.int32(0x3F000000)).view(_F32)     # mantissa in [0.5, 1)
    small = m < _F32(0.707106781186547524)
    x = (m - _F32(1)) + np.where(small, m, _F32(0))
    e = e - np.where(small, _F32(1), _F32(0))
    z = x * x
    y = np.full_like(x, _F32(_LOG_P[0]))
    for p in _LOG_P[1:]:
        y = y * x + _F32(p)
    y = y * x * z + e * _F32(-2.12194440e-4) - z * _F32(0.5)
    return x + y + e * _F32(0.693359375)


def _sincos_f32(x: np.ndarray) -> tuple:
    """(sin x, cos x) in float32: reduce by multiples of pi/4, then two short polynomials."""
    sign_sin = np.signbit(x)
    x = np.abs(x)
    k = ((x * _F32(1.27323954473516)).astype(np.int32) + 1) & ~1
    y = k.astype(_F32)
    for dp in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8):
        x = x + y * _F32(dp)
    sign_sin ^= (k & 4) != 0
    sign_cos = (~(k - 2) & 4) != 0
    poly_sin = (k & 2) == 0
    z = x * x
    c = (_F32(2.443315711809948e-5) * z + _F32(-1.388731625493765e-3)) * z
    c = (c + _F32(4.166664568298827e-2)) * z * z - z * _F32(0.5) + _F32(1)
    s = (_F32(-1.9515295891e-4) * z + _F32(8.3321608736e-3)) * z
    s = (s + _F32(-1.6666654611e-1)) * z * x + x
    sin = np.where(poly_sin, s, c)
    cos = np.where(poly_sin, c, s)
    return np.where(sign_sin, -sin, sin), np.where(sign_cos, -cos, cos)


default_generator = Generator()
