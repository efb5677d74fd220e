"""torch.einsum with ellipses and several operands: values and gradients against numpy's
einsum (float64), and the left-to-right contraction PyTorch records."""
import numpy as np
import pytest

import gradstep.engine as torch

EQUATIONS = [("...ij,...jk->...ik", [(2, 2, 3), (3, 4)]), ("...,...->...", [(2, 3), (3,)]),
             ("i...->...", [(2, 3, 4)]), ("...ii->...i", [(2, 3, 3)]),
             ("ij...,jk...", [(2, 3, 5), (3, 4, 5)]),
             ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("i,i,i->", [(3,), (3,), (3,)]),
             ("bij,bjk,bkl->bil", [(2, 2, 3), (2, 3, 4), (2, 4, 2)]),
             ("ij,jk,kl,lm->im", [(2, 3), (3, 4), (4, 2), (2, 3)]),
             ("ab,bc,ca->", [(2, 3), (3, 4), (4, 2)]),
             ("...j,j...,...->...", [(2, 3), (3, 2), (2,)]),
             ("jk,ij,kl->li", [(3, 4), (2, 3), (4, 5)])]


@pytest.mark.parametrize("equation,shapes", EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_values_and_gradients_match_numpy(equation, shapes):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in shapes]
    ops = [torch.tensor(a, requires_grad=True) for a in arrays]
    y = torch.einsum(equation, *ops)
    want = np.einsum(equation, *arrays)
    np.testing.assert_allclose(y.detach().numpy(), want, rtol=1e-12, atol=1e-12)
    y.backward(torch.ones_like(y))
    eps = 1e-6
    for i, a in enumerate(arrays):      # directional derivative of the sum of the output
        d = rng.standard_normal(a.shape)
        hi = [x + eps * d if j == i else x for j, x in enumerate(arrays)]
        lo = [x - eps * d if j == i else x for j, x in enumerate(arrays)]
        numeric = (np.einsum(equation, *hi).sum() - np.einsum(equation, *lo).sum()) / (2 * eps)
        np.testing.assert_allclose((ops[i].grad.numpy() * d).sum(), numeric, rtol=1e-6)


def test_three_operands_are_contracted_left_to_right():
    a, b, c = (torch.ones(2, 3, requires_grad=True), torch.ones(3, 4, requires_grad=True),
               torch.ones(4, 5, requires_grad=True))
    y = torch.einsum("ij,jk,kl->il", a, b, c)
    names = []
    fn = y.grad_fn
    while fn is not None and type(fn).__name__ != "AccumulateGrad":
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0]
    assert names.count("BmmBackward0") == 2 and names[:4] == ["ViewBackward0", "PermuteBackward0",
                                                              "ViewBackward0", "BmmBackward0"]


def test_ellipsis_sizes_must_broadcast():
    with pytest.raises(RuntimeError, match="covered by ellipsis in operand 1has size 4"):
        torch.einsum("...ij,...jk", torch.ones(2, 3, 3), torch.ones(4, 3, 3))
