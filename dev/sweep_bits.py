"""Bitwise sweep: how many forward values and input gradients equal real PyTorch's to the bit.

usage: python dev/sweep_bits.py --python PATH_TO_TORCH_PYTHON [--dtype float64] [--trials N]
                                [--only SUBSTRING ...] [--show]

A development script, not a test. For every case below (the engine's registered ops, the public
functions and `nn.functional` losses and activations learners call, optimizer steps), it draws
random inputs of learner sizes (0-d, 3, 2x3, 4x5, broadcast pairs), runs forward and backward
(with a random grad_output) on the engine in this process, then the same case code on real
PyTorch in a child interpreter (inputs and results pass through one .npz file each), and prints
per case the share of bit-identical forward values and input-gradient values. `--show` prints
a few mismatching values per case. Registered ops no case reaches are listed at the end.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

UNARY = [(), (3,), (2, 3), (4, 5)]
BINARY = [((), ()), ((3,), (3,)), ((2, 3), (2, 3)), ((4, 5), (5,)), ((4, 5), (4, 1)),
          ((2, 3), ()), ((), (4, 5))]
MATS = [((2, 3), (3, 4)), ((4, 5), (5, 3)), ((1, 3), (3, 1)), ((5, 4), (4, 5))]
ROWS = [(3,), (2, 3), (4, 5), (3, 4)]


def f(shape, lo=-2.0, hi=2.0, grad=True):
    """A float input spec: shape, value range, whether it requires grad."""
    return ("f", tuple(shape), lo, hi, grad)


def cls_target(n, c):
    return ("i", (n,), c)


def unary(fn, lo=-2.0, hi=2.0, shapes=UNARY):
    return [(fn, [f(s, lo, hi)]) for s in shapes]


def binary(fn, lo=-2.0, hi=2.0, lo2=None, hi2=None, pairs=BINARY):
    lo2 = lo if lo2 is None else lo2
    hi2 = hi if hi2 is None else hi2
    return [(fn, [f(a, lo, hi), f(b, lo2, hi2)]) for a, b in pairs]


def loss(fn, lo=-2.0, hi=2.0, tlo=-2.0, thi=2.0, tgrad=False):
    return [(fn, [f(s, lo, hi), f(s, tlo, thi, tgrad)]) for s in [(3,), (2, 3), (4, 5), ()]]


def optim_case(make):
    """Three steps of an optimizer from random params and gradients; returns the params."""
    def run(T, p, g1, g2, g3):
        w = p.detach().clone().requires_grad_(True)
        opt = make(T, w)
        for g in (g1, g2, g3):
            w.grad = g.detach().clone()
            opt.step()
        return w.detach()
    return [(run, [f(s, grad=False)] + [f(s, grad=False)] * 3) for s in [(3,), (4, 5)]]


def _cases():
    F = "F"   # nn.functional, looked up on the torch module given
    c = {}
    for name in ["exp", "log", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "relu",
                 "abs", "neg", "reciprocal", "log2", "log10", "log1p", "expm1", "sinh", "cosh",
                 "atan", "asin", "exp2", "erf", "square", "sign", "floor"]:
        lo, hi = {"log": (0.05, 4), "sqrt": (0.05, 4), "rsqrt": (0.05, 4), "log2": (0.05, 4),
                  "log10": (0.05, 4), "log1p": (-0.5, 3), "tan": (-1.2, 1.2),
                  "asin": (-0.95, 0.95), "reciprocal": (0.2, 3)}.get(name, (-2.0, 2.0))
        c[name] = unary(lambda T, x, n=name: getattr(T, n)(x), lo, hi)
    for p in (2, 3, 0.5, -1, 1.5, -0.5, 2.5):
        c[f"pow_scalar_{p}"] = unary(lambda T, x, p=p: x ** p, 0.1, 3.0)
    c["pow_scalar_2_neg"] = unary(lambda T, x: x ** 2)
    c["pow_scalar_3_neg"] = unary(lambda T, x: x ** 3)
    c["clamp"] = unary(lambda T, x: x.clamp(-1.0, 0.5))
    c["leaky_relu"] = unary(lambda T, x: T.nn.functional.leaky_relu(x, 0.1))
    c["softplus"] = unary(lambda T, x: T.nn.functional.softplus(x))
    c["silu"] = unary(lambda T, x: T.nn.functional.silu(x))
    c["elu"] = unary(lambda T, x: T.nn.functional.elu(x))
    c["gelu"] = unary(lambda T, x: T.nn.functional.gelu(x))
    c["gelu_tanh"] = unary(lambda T, x: T.nn.functional.gelu(x, approximate="tanh"))
    c["add"] = binary(lambda T, a, b: a + b)
    c["add_alpha"] = binary(lambda T, a, b: T.add(a, b, alpha=0.3))
    c["sub"] = binary(lambda T, a, b: a - b)
    c["mul"] = binary(lambda T, a, b: a * b)
    c["div"] = binary(lambda T, a, b: a / b, lo2=0.3, hi2=2.0)
    c["div_neg"] = binary(lambda T, a, b: a / b, lo2=-2.0, hi2=-0.3)
    c["pow_tensor"] = binary(lambda T, a, b: a ** b, 0.2, 3.0, -2.0, 2.0)
    c["maximum"] = binary(lambda T, a, b: T.maximum(a, b))
    c["minimum"] = binary(lambda T, a, b: T.minimum(a, b))
    c["rsub_scalar"] = unary(lambda T, x: 2.5 - x)
    c["mul_scalar"] = unary(lambda T, x: x * 0.3)
    c["div_scalar"] = unary(lambda T, x: x / 3.0)
    c["rdiv_scalar"] = unary(lambda T, x: 1.5 / x, 0.2, 3.0)
    c["add_scalar"] = unary(lambda T, x: x + 0.1)
    c["rpow_scalar"] = unary(lambda T, x: 2.0 ** x)
    c["rpow_e"] = unary(lambda T, x: 2.718281828459045 ** x)
    c["where"] = binary(lambda T, a, b: T.where(a > 0, a, b), pairs=BINARY[1:4])
    # reductions
    c["sum"] = unary(lambda T, x: x.sum(), shapes=UNARY + [(7, 9), (40,)])
    c["sum_dim0"] = unary(lambda T, x: x.sum(0), shapes=ROWS + [(7, 9)])
    c["sum_dim-1"] = unary(lambda T, x: x.sum(-1), shapes=ROWS + [(7, 9), (3, 40)])
    c["mean"] = unary(lambda T, x: x.mean(), shapes=UNARY + [(7, 9), (40,)])
    c["mean_dim0"] = unary(lambda T, x: x.mean(0), shapes=ROWS + [(7, 9)])
    c["mean_dim-1"] = unary(lambda T, x: x.mean(-1), shapes=ROWS + [(7, 9), (3, 40)])
    c["max"] = unary(lambda T, x: x.max())
    c["max_dim"] = unary(lambda T, x: x.max(-1)[0], shapes=ROWS)
    c["prod"] = unary(lambda T, x: x.prod(), 0.5, 1.5)
    c["prod_dim"] = unary(lambda T, x: x.prod(0), 0.5, 1.5, shapes=ROWS)
    c["norm"] = unary(lambda T, x: x.norm(), shapes=UNARY + [(7, 9)])
    c["norm_dim"] = unary(lambda T, x: x.norm(dim=-1), shapes=ROWS)
    c["norm_p1"] = unary(lambda T, x: x.norm(p=1))
    c["norm_p3"] = unary(lambda T, x: x.norm(p=3))
    c["var"] = unary(lambda T, x: x.var(), shapes=ROWS)
    c["std"] = unary(lambda T, x: x.std(), shapes=ROWS)
    c["var_dim"] = unary(lambda T, x: x.var(-1), shapes=[(2, 3), (4, 5)])
    c["cumsum"] = unary(lambda T, x: x.cumsum(-1), shapes=ROWS)
    c["logsumexp"] = unary(lambda T, x: T.logsumexp(x, -1), shapes=ROWS)
    c["softmax"] = unary(lambda T, x: T.softmax(x, -1), shapes=ROWS)
    c["softmax_dim0"] = unary(lambda T, x: T.softmax(x, 0), shapes=ROWS + [(3, 20), (2, 3, 4)])
    c["log_softmax"] = unary(lambda T, x: T.log_softmax(x, -1), shapes=ROWS)
    c["log_softmax_dim0"] = unary(lambda T, x: T.log_softmax(x, 0),
                                  shapes=ROWS + [(3, 20), (2, 3, 4)])
    c["softmax_dim1_3d"] = unary(lambda T, x: T.softmax(x, 1) * 1.5 + T.log_softmax(x, 1),
                                 shapes=[(2, 3, 4), (3, 4, 17)])
    # linear algebra
    c["matmul"] = binary(lambda T, a, b: a @ b, pairs=MATS)
    c["mm"] = binary(lambda T, a, b: T.mm(a, b), pairs=MATS)
    c["mv"] = binary(lambda T, a, b: T.mv(a, b), pairs=[((2, 3), (3,)), ((4, 5), (5,))])
    c["dot"] = binary(lambda T, a, b: T.dot(a, b), pairs=[((3,), (3,)), ((5,), (5,)),
                                                           ((20,), (20,))])
    c["outer"] = binary(lambda T, a, b: T.outer(a, b), pairs=[((3,), (4,))])
    c["bmm"] = binary(lambda T, a, b: T.bmm(a, b), pairs=[((2, 2, 3), (2, 3, 4))])
    c["linear"] = [(lambda T, x, w, b: T.nn.functional.linear(x, w, b),
                    [f(xs), f(ws), f(bs)]) for xs, ws, bs in
                   [((4, 3), (2, 3), (2,)), ((5, 4), (3, 4), (3,)), ((3,), (1, 3), (1,)),
                    ((8, 5), (4, 5), (4,))]]
    c["linear_nobias"] = [(lambda T, x, w: T.nn.functional.linear(x, w), [f(xs), f(ws)])
                          for xs, ws in [((4, 3), (2, 3)), ((5, 4), (3, 4))]]
    # losses
    c["mse_loss"] = loss(lambda T, a, b: T.nn.functional.mse_loss(a, b))
    c["mse_loss_sum"] = loss(lambda T, a, b: T.nn.functional.mse_loss(a, b, reduction="sum"))
    c["mse_loss_none"] = loss(lambda T, a, b: T.nn.functional.mse_loss(a, b, reduction="none"))
    c["mse_loss_tgrad"] = loss(lambda T, a, b: T.nn.functional.mse_loss(a, b), tgrad=True)
    c["l1_loss"] = loss(lambda T, a, b: T.nn.functional.l1_loss(a, b))
    c["smooth_l1"] = loss(lambda T, a, b: T.nn.functional.smooth_l1_loss(a, b))
    c["huber"] = loss(lambda T, a, b: T.nn.functional.huber_loss(a, b))
    c["bce"] = loss(lambda T, a, b: T.nn.functional.binary_cross_entropy(a, b),
                    0.02, 0.98, 0.0, 1.0)
    c["bce_logits"] = loss(lambda T, a, b: T.nn.functional.binary_cross_entropy_with_logits(
        a, b), tlo=0.0, thi=1.0)
    ce_shapes = [(1, 3), (4, 3), (4, 5), (8, 10), (40, 4)]
    c["cross_entropy"] = [(lambda T, x, t: T.nn.functional.cross_entropy(x, t),
                           [f(s), cls_target(*s)]) for s in ce_shapes]
    c["cross_entropy_sum"] = [(lambda T, x, t: T.nn.functional.cross_entropy(
        x, t, reduction="sum"), [f(s), cls_target(*s)]) for s in ce_shapes]
    c["cross_entropy_ls"] = [(lambda T, x, t: T.nn.functional.cross_entropy(
        x, t, label_smoothing=0.1), [f(s), cls_target(*s)]) for s in ce_shapes]
    c["nll_loss"] = [(lambda T, x, t: T.nn.functional.nll_loss(x, t),
                      [f(s, -3.0, 0.0), cls_target(*s)]) for s in ce_shapes]
    c["cross_entropy_prob"] = [(lambda T, x, t: T.nn.functional.cross_entropy(
        x, T.softmax(t, -1)), [f(s), f(s, grad=False)]) for s in ce_shapes]
    # shapes (gradients are sums over broadcast/expanded dims)
    c["expand_sum_to"] = [(lambda T, x: x.expand(4, 3), [f((3,))]),
                          (lambda T, x: x.expand(7, 5), [f((7, 1))]),
                          (lambda T, x: x.expand(3, 4, 5), [f((4, 5))])]
    c["cat"] = binary(lambda T, a, b: T.cat([a, b]), pairs=[((3,), (2,)), ((2, 3), (4, 3))])
    c["stack"] = binary(lambda T, a, b: T.stack([a, b]), pairs=BINARY[1:3])
    c["transpose_view"] = unary(lambda T, x: x.t().reshape(-1) * 1.5, shapes=[(2, 3), (4, 5)])
    c["index"] = unary(lambda T, x: x[1:, ::2] * x[:-1, ::2], shapes=[(2, 3), (4, 5)])
    c["gather"] = [(lambda T, x: x.gather(1, T.tensor([[0, 0], [1, 0]])), [f((2, 3))])]
    # the rest of the registry: views, selections, joins, second derivatives
    c["min"] = unary(lambda T, x: x.min())
    c["min_dim"] = unary(lambda T, x: x.min(0)[0], shapes=ROWS)
    c["round_ceil_trunc"] = unary(lambda T, x: x.round() + x.ceil() * 2 + x.trunc() * 3)
    c["views"] = unary(lambda T, x: x.permute(1, 0).flip(0).unsqueeze(0).squeeze(0).squeeze()
                       .clone().repeat(2, 1)[1:, ::2].select(0, 1) * 1.5,
                       shapes=[(2, 3), (4, 5)])
    c["split_unbind"] = unary(lambda T, x: x.split(1, 0)[0] * 2 + x.unbind(0)[1].to(T.float64)
                              .to(T.float32), shapes=[(2, 3), (4, 5)])
    c["index_select"] = unary(lambda T, x: x.index_select(1, T.tensor([2, 0, 2])) * 1.5,
                              shapes=[(2, 3), (4, 5)])
    c["masked_fill"] = unary(lambda T, x: x.masked_fill(x > 0.5, 2.0) * x)
    c["sort_topk"] = unary(lambda T, x: x.sort(-1)[0] * 2 + x.topk(3, -1)[0].sum(-1, True),
                           shapes=[(3,), (2, 3), (4, 5)])
    c["inverse"] = unary(lambda T, x: T.inverse(x + 3 * T.eye(3)), shapes=[(3, 3)])
    c["grad_of_grad"] = [(lambda T, x, fn=fn: T.autograd.grad(fn(x).sum(), x,
                                                              create_graph=True)[0],
                          [f((2, 3))]) for fn in (
        lambda x: x.tanh(), lambda x: x.sigmoid(), lambda x: x.relu() * x,
        lambda x: x * x * x, lambda x: x.exp() * x)]
    c["loss_grad_of_grad"] = [(lambda T, x, t, fn=fn: T.autograd.grad(
        fn(T, x, t), x, create_graph=True)[0], [f((2, 3)), f((2, 3), grad=False)]) for fn in (
        lambda T, x, t: T.nn.functional.mse_loss(x, t),
        lambda T, x, t: T.nn.functional.huber_loss(x, t, delta=0.5),
        lambda T, x, t: T.nn.functional.smooth_l1_loss(x, t, beta=0.5),
        lambda T, x, t: T.nn.functional.leaky_relu(x, 0.2).sum())]
    # optimizers
    c["sgd"] = optim_case(lambda T, w: T.optim.SGD([w], lr=0.1))
    c["sgd_momentum"] = optim_case(lambda T, w: T.optim.SGD([w], lr=0.01, momentum=0.9))
    c["sgd_wd"] = optim_case(lambda T, w: T.optim.SGD([w], lr=0.05, momentum=0.9,
                                                      weight_decay=1e-2))
    c["sgd_nesterov"] = optim_case(lambda T, w: T.optim.SGD([w], lr=0.05, momentum=0.9,
                                                            nesterov=True))
    c["sgd_dampening"] = optim_case(lambda T, w: T.optim.SGD([w], lr=0.05, momentum=0.5,
                                                             dampening=0.3))
    c["adam"] = optim_case(lambda T, w: T.optim.Adam([w], lr=0.01))
    c["adam_wd"] = optim_case(lambda T, w: T.optim.Adam([w], lr=0.1, weight_decay=0.1))
    c["adam_amsgrad"] = optim_case(lambda T, w: T.optim.Adam([w], lr=0.01, amsgrad=True))
    c["adamw"] = optim_case(lambda T, w: T.optim.AdamW([w], lr=0.01))
    c["rmsprop"] = optim_case(lambda T, w: T.optim.RMSprop([w], lr=0.01))
    c["rmsprop_momentum"] = optim_case(lambda T, w: T.optim.RMSprop([w], lr=0.01,
                                                                    momentum=0.9))
    c["rmsprop_centered"] = optim_case(lambda T, w: T.optim.RMSprop([w], lr=0.01,
                                                                    centered=True))
    del F
    return c


CASES = _cases()


# ---- running one side ------------------------------------------------------------------------
def _inputs(T, arrays, specs, dtype):
    out = []
    for a, spec in zip(arrays, specs):
        if spec[0] == "i":
            out.append(T.tensor(a.tolist(), dtype=T.int64) if a.ndim else T.tensor(int(a)))
        else:
            t = T.tensor(a.tolist(), dtype=getattr(T, dtype))
            out.append(t.requires_grad_(spec[4]))
    return out


def run_case(T, fn, arrays, specs, dtype, grads=None):
    """Forward (and backward with `grads`, one per output) -> (outputs, input grads)."""
    xs = _inputs(T, arrays, specs, dtype)
    outs = fn(T, *xs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    fwd = [np.array(o.detach().tolist(), dtype=dtype) for o in outs]
    ins = []
    diff = [o for o in outs if o.requires_grad]
    if diff and grads is not None:
        gs = [T.tensor(g.tolist(), dtype=getattr(T, dtype)) for g in grads[:len(diff)]]
        T.autograd.backward(diff, gs)
        for x, spec in zip(xs, specs):
            if spec[0] == "f" and spec[4]:
                g = x.grad
                ins.append(None if g is None else np.array(g.tolist(), dtype=dtype))
    return fwd, ins


def _draw(rng, specs, dtype):
    arrays = []
    for spec in specs:
        if spec[0] == "i":
            arrays.append(rng.integers(0, spec[2], size=spec[1]).astype(np.int64))
        else:
            _, shape, lo, hi, _ = spec
            arrays.append(np.asarray(rng.uniform(lo, hi, size=shape), dtype=dtype))
    return arrays


def worker(path_in: str, path_out: str) -> None:
    """The child side: run every case found in the input file on real torch."""
    import torch
    data = np.load(path_in, allow_pickle=False)
    dtype = str(data["__dtype"])
    results = {}
    keys = sorted({k.rsplit("|", 2)[0] for k in data.files if k.count("|") == 4})
    for key in keys:
        name, v, trial = key.split("|")
        fn, specs = CASES[name][int(v)]
        arrays = [data[f"{key}|in|{i}"] for i in range(len(specs))]
        grads, i = [], 0
        while f"{key}|go|{i}" in data.files:
            grads.append(data[f"{key}|go|{i}"])
            i += 1
        try:
            fwd, ins = run_case(torch, fn, arrays, specs, dtype, grads)
        except Exception as e:  # reported, not fatal
            results[f"{key}|err"] = np.array(f"{type(e).__name__}: {e}")
            continue
        for i, a in enumerate(fwd):
            results[f"{key}|out|{i}"] = a
        for i, a in enumerate(ins):
            if a is not None:
                results[f"{key}|grad|{i}"] = a
    np.savez(path_out, **results)


# ---- comparing -------------------------------------------------------------------------------
def _same_bits(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = np.asarray(a).reshape(-1), np.asarray(b).reshape(-1)
    if a.shape != b.shape:
        return np.zeros(max(a.size, 1), dtype=bool)
    u = np.uint32 if a.dtype == np.float32 else np.uint64
    return (a.view(u) == b.view(u)) | (np.isnan(a) & np.isnan(b))


def _ulps(a, b):
    a, b = np.asarray(a).reshape(-1), np.asarray(b).reshape(-1)
    i = np.int32 if a.dtype == np.float32 else np.int64
    return np.abs(a.view(i).astype(np.int64) - b.view(i).astype(np.int64))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", required=True, help="an interpreter with real PyTorch")
    ap.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    ap.add_argument("--trials", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(*args.worker)
        return 0
    sys.path.insert(0, str(ROOT))
    from gradstep import engine
    from gradstep.engine.ops._op import REGISTRY
    dtype = args.dtype
    names = [n for n in CASES if not args.only or any(s in n for s in args.only)]
    data, mine = {"__dtype": np.array(dtype)}, {}
    seen_nodes = set()
    for name in names:
        # each case draws from its own stream, so runs on two engines (or with --only) see
        # the same inputs even where one of them raises
        rng = np.random.default_rng([args.seed, zlib.crc32(name.encode())])
        for v, (fn, specs) in enumerate(CASES[name]):
            for trial in range(args.trials):
                key = f"{name}|{v}|{trial}"
                arrays = _draw(rng, specs, dtype)
                try:
                    outs = fn(engine, *_inputs(engine, arrays, specs, dtype))
                except Exception as e:
                    mine[key] = f"{type(e).__name__}: {e}"
                    continue
                outs = outs if isinstance(outs, tuple) else (outs,)
                _walk_names(outs, seen_nodes)
                grads = [np.asarray(rng.uniform(-2, 2, size=tuple(o.shape)), dtype=dtype)
                         for o in outs if o.requires_grad]
                mine[key] = run_case(engine, fn, arrays, specs, dtype, grads)
                for i, a in enumerate(arrays):
                    data[f"{key}|in|{i}"] = a
                for i, g in enumerate(grads):
                    data[f"{key}|go|{i}"] = g
    with tempfile.TemporaryDirectory(prefix="sweep-") as tmp:
        pin, pout = os.path.join(tmp, "in.npz"), os.path.join(tmp, "out.npz")
        np.savez(pin, **data)
        subprocess.run([args.python, str(Path(__file__).resolve()), "--python", args.python,
                        "--worker", pin, pout], check=True, cwd=tmp)
        theirs = dict(np.load(pout, allow_pickle=False))
    print(f"{'case':22} {'forward':>16} {'gradient':>16}   max ulps (fwd, grad)")
    for name in names:
        tally = np.zeros(4, dtype=np.int64)
        worst, shown, errors = [0, 0], 0, set()
        for v in range(len(CASES[name])):
            for trial in range(args.trials):
                key = f"{name}|{v}|{trial}"
                if isinstance(mine.get(key), str) or f"{key}|err" in theirs:
                    errors.add(mine[key] if isinstance(mine.get(key), str)
                               else f"torch: {theirs[f'{key}|err']}")
                    continue
                fwd, ins = mine[key]
                for kind, arrs, col in (("out", fwd, 0), ("grad", ins, 2)):
                    for i, a in enumerate(arrs):
                        if a is None or f"{key}|{kind}|{i}" not in theirs:
                            continue
                        b = theirs[f"{key}|{kind}|{i}"]
                        same = _same_bits(a, b)
                        tally[col] += same.sum()
                        tally[col + 1] += same.size
                        if not same.all() and a.shape == b.shape:
                            worst[col // 2] = max(worst[col // 2], int(_ulps(a, b).max()))
                            if args.show and shown < 3:
                                shown += 1
                                j = int(np.argmin(same))
                                print(f"    {key} {kind}{i}[{j}]: engine "
                                      f"{a.reshape(-1)[j]!r} torch {b.reshape(-1)[j]!r}")
        cells = [f"{tally[k] / tally[k + 1]:7.1%} of {tally[k + 1]:<5}" if tally[k + 1]
                 else f"{'-':>16}" for k in (0, 2)]
        print(f"{name:22} {cells[0]} {cells[1]}   {worst[0]}, {worst[1]}")
        for e in sorted(errors)[:2]:
            print(f"    error: {e[:110]}")
    missing = sorted(set(REGISTRY) - seen_nodes)
    print(f"\nregistered ops no case reached ({len(missing)}): {', '.join(missing)}")
    return 0


def _walk_names(outs, seen: set) -> None:
    """grad_fn names reachable from `outs` (which registered ops the cases exercise)."""
    stack = [o.grad_fn for o in outs if getattr(o, "grad_fn", None) is not None]
    while stack:
        node = stack.pop()
        if node is None or type(node).__name__ in seen:
            continue
        seen.add(type(node).__name__)
        stack.extend(fn for fn, _ in node.next_functions)


if __name__ == "__main__":
    sys.exit(main())
