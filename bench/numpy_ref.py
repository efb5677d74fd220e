"""Hand-written numpy forward + backward for each workload: the practical floor.

Each function does the same arithmetic as its workload in bench/workloads/, with the
derivatives worked out by hand and intermediates kept in plain lists, so the ratio
engine/numpy measures what the autograd machinery costs on top of the maths.
"""
from __future__ import annotations

import numpy as np

F32 = np.float32


def w1_tiny_ops():
    """Forward and backward of W1's 2000-op chain; returns (forward_fn, backward_fn)."""
    x = np.array([0.1, 0.2, 0.3], F32)
    c = np.array([0.5, 0.5, 0.5], F32)
    rounds = 2000 // 5
    tape = []

    def forward():
        tape.clear()
        y = x
        for _ in range(rounds):
            y = y * c
            y = y + c
            tape.append(y)                 # sin needs its input
            y = np.sin(y)
            y = y - c
            t = np.tanh(y)
            tape.append(t)                 # tanh' uses its output
            y = t
        return y.sum()

    def backward():
        g = np.ones(3, F32)
        for i in range(rounds - 1, -1, -1):
            t = tape[2 * i + 1]
            g = g * (1 - t * t)            # tanh
            g = g * np.cos(tape[2 * i])    # sin
            g = g * c                      # mul
        return g

    return forward, backward


def w2_thermometer(epochs: int = 5000) -> float:
    t_u = np.array([35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4], F32)
    t_u = t_u * F32(0.1)
    t_c = np.array([0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0], F32)
    w, b = F32(1.0), F32(0.0)
    n = F32(len(t_u))
    loss = None
    for _ in range(epochs):
        diff = w * t_u + b - t_c
        loss = (diff * diff).mean()
        g = F32(2.0) * diff / n            # d loss / d t_p
        gw, gb = (g * t_u).sum(), g.sum()
        w, b = w - F32(1e-2) * gw, b - F32(1e-2) * gb
    return float(loss)


def w6_small_matmul(epochs: int = 1000) -> float:
    x = np.array([[((i * 7 + j * 3) % 11 - 5) / 4.0 for j in range(3)] for i in range(32)], F32)
    noise = np.array([[((i * 5) % 7 - 3) / 20.0] for i in range(32)], F32)
    y = x @ np.array([[2.0], [-1.0], [0.5]], F32) + F32(0.3) + noise
    w, b = np.zeros((3, 1), F32), np.zeros(1, F32)
    loss = None
    for _ in range(epochs):
        diff = x @ w + b - y
        loss = (diff * diff).mean()
        g = F32(2.0) * diff / F32(diff.size)
        w, b = w - F32(0.1) * (x.T @ g), b - F32(0.1) * g.sum(0)
    return float(loss)


def w3_mlp_setup(batch=512, d_in=256, hidden=256, d_out=10):
    rng = np.random.default_rng(0)
    b1, b2 = 1 / np.sqrt(d_in), 1 / np.sqrt(hidden)
    params = [rng.uniform(-b1, b1, (hidden, d_in)).astype(F32),
              rng.uniform(-b1, b1, hidden).astype(F32),
              rng.uniform(-b2, b2, (d_out, hidden)).astype(F32),
              rng.uniform(-b2, b2, d_out).astype(F32)]
    x = rng.standard_normal((batch, d_in)).astype(F32)
    y = rng.standard_normal((batch, d_out)).astype(F32)
    return params, x, y


def w3_mlp_step(state, lr=F32(0.01)) -> float:  # noqa: B008 - an immutable numpy scalar
    (w1, b1, w2, b2), x, y = state
    h = np.tanh(x @ w1.T + b1)
    out = h @ w2.T + b2
    diff = out - y
    loss = (diff * diff).mean()
    g_out = F32(2.0) * diff / F32(diff.size)
    g_w2, g_b2 = g_out.T @ h, g_out.sum(0)
    g_h = (g_out @ w2) * (1 - h * h)
    g_w1, g_b1 = g_h.T @ x, g_h.sum(0)
    for p, g in zip((w1, b1, w2, b2), (g_w1, g_b1, g_w2, g_b2)):
        p -= lr * g       # rounds twice; PyTorch's SGD (and the engine) round once (an fma)
    return float(loss)


def w4_big_chain(x: np.ndarray) -> float:
    # the tape lives until the return; the engine frees saved arrays during backward, which
    # changes when glibc trims its heap (docs/performance.md, "W4, second look")
    tape = []
    y = x
    for _ in range(4):
        y = y * F32(0.9)
        y = y + F32(0.1)
        tape.append(y)
        y = np.sin(y)
        tape.append(y)
        y = y * y
        y = np.exp(y)
        tape.append(y)
    loss = y.sum()
    g = np.ones_like(x)
    for i in range(3, -1, -1):
        pre_sin, s, e = tape[3 * i], tape[3 * i + 1], tape[3 * i + 2]
        g = g * e                          # exp' = exp
        g = g * (F32(2.0) * s)             # (s*s)' = 2s
        g = g * np.cos(pre_sin)            # sin' = cos
        g = g * F32(0.9)
    return float(loss)


def w5_graph_size(n: int) -> None:
    x = np.array([0.5, -0.5, 0.25], F32)
    y = x
    for i in range(n):
        y = y * F32(1.0001) if i % 2 else y + F32(0.0001)
    g = np.ones(3, F32)
    for i in range(n - 1, -1, -1):
        if i % 2:
            g = g * F32(1.0001)
