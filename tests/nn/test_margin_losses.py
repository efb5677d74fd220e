"""Margin and embedding losses against PyTorch 2.13: values, grad_fn chains, gradients.

Expected numbers were printed by real PyTorch 2.13 (CPU, float32) for the same inputs in the
development-only torch venv.
"""
import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.nn.functional as F
from gradstep.engine import nn

A = [0.5, -1.0, 2.0, 0.1]
B = [1.0, 0.5, -0.3, 0.1]
Y = torch.tensor([1.0, -1.0, 1.0, -1.0])


def _chain(t):
    """Node names depth first, inputs in order (a constant input has no node)."""
    names, stack = [], [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is not None:
            names.append(type(fn).__name__)
            stack.extend(f for f, _ in reversed(fn.next_functions))
    return names


def test_margin_ranking_records_cpp_composition():
    a, b = torch.tensor(A, requires_grad=True), torch.tensor(B, requires_grad=True)
    loss = F.margin_ranking_loss(a, b, Y, margin=0.2)
    assert _chain(loss)[:5] == ["MeanBackward0", "ClampMinBackward0", "AddBackward1",
                                "MulBackward0", "SubBackward0"]
    assert round(loss.item(), 4) == 0.225
    F.margin_ranking_loss(a, b, Y).backward()
    assert a.grad.tolist() == [-0.25, 0.0, 0.0, 0.25]


def test_hinge_embedding_values_and_grad():
    a = torch.tensor(A, requires_grad=True)
    loss = F.hinge_embedding_loss(a, Y)
    loss.backward()
    assert round(loss.item(), 4) == 1.35
    assert a.grad.tolist() == [0.25, -0.25, 0.25, -0.25]
    assert type(F.hinge_embedding_loss(a, Y, reduction="none").grad_fn).__name__ == "AddBackward0"


def test_soft_margin_node_and_grad():
    a = torch.tensor(A, requires_grad=True)
    loss = F.soft_margin_loss(a, Y)
    assert type(loss.grad_fn).__name__ == "SoftMarginLossBackward0"
    g, = torch.autograd.grad(loss, a, create_graph=True)
    assert type(g.grad_fn).__name__ == "SoftMarginLossBackwardBackward0"
    np.testing.assert_allclose(g.tolist(), [-0.0944, 0.0672, -0.0298, 0.1312], atol=1e-4)
    with pytest.raises(RuntimeError, match="not differentiable with respect to argument 'target'"):
        F.soft_margin_loss(a, Y.clone().requires_grad_())


def test_cosine_embedding_values_and_checks():
    x1 = torch.tensor([[1.0, 2.0, -1.0], [0.5, 0.1, 0.3]], requires_grad=True)
    x2 = torch.tensor([[0.3, -2.0, 1.0], [0.5, 0.2, 0.2]])
    loss = F.cosine_embedding_loss(x1, x2, torch.tensor([1, -1]), 0.1, reduction="none")
    np.testing.assert_allclose(loss.tolist(), [1.8505, 0.8710], atol=1e-4)
    with pytest.raises(RuntimeError, match="0D or 1D target tensor expected"):
        F.cosine_embedding_loss(x1, x2, torch.ones(1, 2))
    with pytest.raises(RuntimeError, match="1D target tensor expects 2D input tensors, but found "
                                           "inputs with sizes \\[3\\] and \\[3\\]."):
        F.cosine_embedding_loss(x1[0], x2[0], torch.tensor([1]))


def test_modules_forward_their_options():
    a, b = torch.tensor(A), torch.tensor(B)
    assert repr(nn.MarginRankingLoss(margin=0.5)) == "MarginRankingLoss()"
    assert nn.MarginRankingLoss(0.1, reduction="sum")(a, b, Y).item() == pytest.approx(0.7)
    assert nn.HingeEmbeddingLoss(2.0)(a, Y).item() == pytest.approx(1.85)
