"""Optimiser updates equal the textbook formulas (written out here in float64 numpy) for any
hyperparameters Hypothesis picks; the PyTorch-number tests pin the float32 rounding."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import gradstep.engine as torch

rates = st.floats(1e-4, 0.5)
unit = st.floats(0.0, 0.95)
decay = st.one_of(st.just(0.0), st.floats(1e-4, 0.1))


def _run(opt_cls, kwargs, grads):
    p = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64, requires_grad=True)
    opt = opt_cls([p], **kwargs)
    for g in grads:
        p.grad = torch.tensor(g, dtype=torch.float64)
        opt.step()
    return p.detach().numpy()


grad_lists = st.lists(st.lists(st.floats(-3, 3), min_size=3, max_size=3), min_size=1,
                      max_size=5)


@settings(max_examples=30, deadline=None)
@given(lr=rates, momentum=unit, dampening=unit, wd=decay, nesterov=st.booleans(),
       maximize=st.booleans(), grads=grad_lists)
def test_sgd_formula(lr, momentum, dampening, wd, nesterov, maximize, grads):
    if nesterov:
        dampening, momentum = 0.0, max(momentum, 0.1)
    p, buf = np.array([0.3, -1.2, 2.0]), None
    for g in map(np.array, grads):
        g = -g if maximize else g
        g = g + wd * p
        if momentum:
            buf = g.copy() if buf is None else momentum * buf + (1 - dampening) * g
            g = g + momentum * buf if nesterov else buf
        p = p - lr * g
    got = _run(torch.optim.SGD, dict(lr=lr, momentum=momentum, dampening=dampening,
                                     weight_decay=wd, nesterov=nesterov, maximize=maximize),
               grads)
    np.testing.assert_allclose(got, p, rtol=1e-12, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(lr=rates, b1=unit, b2=st.floats(0.5, 0.999), eps=st.floats(1e-8, 1e-2), wd=decay,
       amsgrad=st.booleans(), decoupled=st.booleans(), grads=grad_lists)
def test_adam_formula(lr, b1, b2, eps, wd, amsgrad, decoupled, grads):
    p = np.array([0.3, -1.2, 2.0])
    m = v = vmax = np.zeros(3)
    for t, g in enumerate(map(np.array, grads), start=1):
        if decoupled:
            p = p * (1 - lr * wd)
        else:
            g = g + wd * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        vmax = np.maximum(vmax, v)
        vhat = (vmax if amsgrad else v) / (1 - b2 ** t)
        p = p - lr * (m / (1 - b1 ** t)) / (np.sqrt(vhat) + eps)
    got = _run(torch.optim.Adam, dict(lr=lr, betas=(b1, b2), eps=eps, weight_decay=wd,
                                      amsgrad=amsgrad, decoupled_weight_decay=decoupled), grads)
    np.testing.assert_allclose(got, p, rtol=1e-9, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(lr=rates, alpha=st.floats(0.5, 0.99), eps=st.floats(1e-8, 1e-2), wd=decay,
       momentum=unit, centered=st.booleans(), grads=grad_lists)
def test_rmsprop_formula(lr, alpha, eps, wd, momentum, centered, grads):
    p = np.array([0.3, -1.2, 2.0])
    s = gavg = buf = np.zeros(3)
    for g in map(np.array, grads):
        g = g + wd * p
        s = alpha * s + (1 - alpha) * g * g
        if centered:
            gavg = alpha * gavg + (1 - alpha) * g
            avg = np.sqrt(s - gavg * gavg) + eps
        else:
            avg = np.sqrt(s) + eps
        if momentum > 0:
            buf = momentum * buf + g / avg
            p = p - lr * buf
        else:
            p = p - lr * g / avg
    got = _run(torch.optim.RMSprop, dict(lr=lr, alpha=alpha, eps=eps, weight_decay=wd,
                                         momentum=momentum, centered=centered), grads)
    np.testing.assert_allclose(got, p, rtol=1e-9, atol=1e-12)
