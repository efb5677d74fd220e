"""`torch.multinomial`: sample category indices from rows of (unnormalised) probabilities.

PyTorch's CPU algorithms, so seeded programs (the makemore bigram sampler, say) draw the same
indices: without replacement, or for one sample, the "exponential race" argmax/topk of
p / q with q ~ Exp(1); with replacement, a binary search of one 53-bit uniform per sample in
the row's cumulative sums (accumulated and normalised in the row's dtype, last bucket set to 1).
"""
from __future__ import annotations

import numpy as np

from .factories import _gen
from .tensor import Tensor, new_tensor


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator=None) -> Tensor:
    """`num_samples` indices per row of `input`, drawn in proportion to its entries.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 2, replacement=True)
        tensor([1, 1])
    """
    probs = input._data
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if probs.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{input.dtype.legacy.replace('Tensor', '')}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > probs.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    rows = probs.reshape(-1, probs.shape[-1])
    gen = _gen(generator)
    if not replacement or num_samples == 1:
        if not (np.all(rows < np.inf) and np.all(rows >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if np.any(rows.sum(axis=1) == 0):
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        q = gen.exponential(rows.size, rows.dtype, 1.0).reshape(rows.shape)
        race = (rows / q).astype(rows.dtype)
        # argmax takes the first maximum; topk orders by value, larger first
        picks = np.argsort(-race, axis=1, kind="stable")[:, :num_samples]
    else:
        picks = np.stack([_with_replacement(row, num_samples, gen) for row in rows])
    return new_tensor(picks.astype(np.int64).reshape(probs.shape[:-1] + (num_samples,)))


def _with_replacement(row: np.ndarray, n: int, gen) -> np.ndarray:
    t = row.dtype.type
    cum = np.empty_like(row)
    total = t(0)
    for j, v in enumerate(row):
        if not v >= 0:
            raise RuntimeError("invalid multinomial distribution (encountering probability "
                               "entry < 0)")
        total = t(total + v)
        cum[j] = total
    if total <= 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    cum = (cum / total).astype(row.dtype)
    cum[-1] = 1
    u = gen.uniform(n, np.float64, 0.0, 1.0)
    return np.searchsorted(cum.astype(np.float64), u, side="left")
