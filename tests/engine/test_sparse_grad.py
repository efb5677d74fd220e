"""Sparse COO gradients of `embedding(..., sparse=True)`: their parts, how gradients add into
them, and what the optimizers do with them. (tests/golden pins what PyTorch prints.)"""
import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.nn.functional as F
from gradstep.engine.coo_tensor import add_sparse, sparse_tensor


def _weight():
    return torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], requires_grad=True)


def _rows(t):
    return t._indices().tolist()[0]


def test_gradient_keeps_one_entry_per_lookup_in_input_order():
    w = _weight()
    (F.embedding(torch.tensor([[3, 0], [3, 1]]), w, sparse=True)
     * torch.tensor([1.0, 10.0])).sum().backward()
    g = w.grad
    assert g.is_sparse and not w.is_sparse and g.layout is torch.sparse_coo
    assert _rows(g) == [3, 0, 3, 1] and not g.is_coalesced()
    assert g._values().tolist() == [[1.0, 10.0]] * 4
    assert g.to_dense().tolist() == [[1.0, 10.0], [1.0, 10.0], [0.0, 0.0], [2.0, 20.0]]
    c = g.coalesce()
    assert c.is_coalesced() and c.indices().tolist() == [[0, 1, 3]]
    assert c.values().tolist() == [[1.0, 10.0], [1.0, 10.0], [2.0, 20.0]]
    with pytest.raises(RuntimeError, match="uncoalesced"):
        g.values()


def test_padding_rows_are_left_out():
    w = _weight()
    F.embedding(torch.tensor([2, 1, 2]), w, padding_idx=2, sparse=True).sum().backward()
    assert _rows(w.grad) == [1] and w.grad._nnz() == 1


def test_broadcast_values_concatenate_and_contiguous_ones_merge():
    w = _weight()
    F.embedding(torch.tensor([2, 0]), w, sparse=True).sum().backward()
    F.embedding(torch.tensor([1, 2]), w, sparse=True).sum().backward()
    assert _rows(w.grad) == [2, 0, 1, 2]        # the .sum() grad is a broadcast: appended
    w.grad = None
    (F.embedding(torch.tensor([2, 0]), w, sparse=True) * 2).sum().backward()
    (F.embedding(torch.tensor([2, 3]), w, sparse=True) * 3).sum().backward()
    assert _rows(w.grad) == [2, 0, 3]           # merged as sorted lists: the 2s meet
    assert w.grad._values()[:, 0].tolist() == [5.0, 2.0, 3.0]


def test_merge_of_coalesced_tensors_is_coalesced():
    a = sparse_tensor(np.array([[0, 2]]), np.ones((2, 1), np.float32), (3, 1), True)
    b = sparse_tensor(np.array([[1, 2]]), np.full((2, 1), 2.0, np.float32), (3, 1), True)
    s = add_sparse(a, b, in_place=False)
    assert s.is_coalesced() and _rows(s) == [0, 1, 2]
    assert s._values()[:, 0].tolist() == [1.0, 2.0, 3.0] and _rows(a) == [0, 2]


def test_dense_and_sparse_gradients_add_to_a_dense_one():
    w = _weight()
    w.sum().backward()
    F.embedding(torch.tensor([1]), w, sparse=True).sum().backward()
    assert not w.grad.is_sparse and w.grad[:, 0].tolist() == [1.0, 2.0, 1.0, 1.0]


def test_zero_grad_without_none_empties_the_sparse_gradient():
    w = _weight()
    F.embedding(torch.tensor([1]), w, sparse=True).sum().backward()
    opt = torch.optim.SGD([w], lr=0.1)
    opt.zero_grad(set_to_none=False)
    assert w.grad.is_sparse and w.grad._nnz() == 0 and w.grad.to_dense().sum().item() == 0.0
    opt.zero_grad()
    assert w.grad is None


def test_sgd_changes_only_the_looked_up_rows_and_maximize_turns_it_round():
    w = _weight()
    F.embedding(torch.tensor([1, 1]), w, sparse=True).sum().backward()
    torch.optim.SGD([w], lr=0.5).step()
    assert w.detach()[:, 0].tolist() == [1.0, 2.0, 5.0, 7.0]
    torch.optim.SGD([w], lr=0.5, maximize=True).step()
    assert w.detach()[:, 0].tolist() == [1.0, 3.0, 5.0, 7.0]


def test_dense_only_optimizers_refuse_and_sparse_adam_refuses_dense():
    w = _weight()
    F.embedding(torch.tensor([0]), w, sparse=True).sum().backward()
    for opt, kind, words in [(torch.optim.NAdam([w]), RuntimeError, "NAdam does not support"),
                             (torch.optim.Adagrad([w]), NotImplementedError, "Adagrad"),
                             (torch.optim.AdamW([w]), RuntimeError, "consider SparseAdam")]:
        with pytest.raises(kind, match=words):
            opt.step()
    assert w.detach()[0].tolist() == [1.0, 2.0]
    d = torch.ones(2, requires_grad=True)
    d.sum().backward()
    with pytest.raises(RuntimeError, match="dense gradients"):
        torch.optim.SparseAdam([d]).step()
    with pytest.raises(ValueError, match="learning rate"):
        torch.optim.SparseAdam([d], lr=0)


def test_sparse_adam_leaves_other_rows_and_moments_alone():
    w = _weight()
    opt = torch.optim.SparseAdam([w], lr=0.1)
    F.embedding(torch.tensor([3]), w, sparse=True).sum().backward()
    opt.step()
    st = opt.state[w]
    assert st["step"] == 1 and st["exp_avg"][:3].abs().sum().item() == 0.0
    assert w.detach()[:3].tolist() == [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    assert w.detach()[3].tolist() == pytest.approx([6.9, 7.9], abs=1e-6)


def test_scaling_in_place_changes_the_entries_the_optimizer_reads():
    w = _weight()
    F.embedding(torch.tensor([1, 1]), w, sparse=True).sum().backward()
    w.grad.mul_(3).div_(torch.tensor(2.0))
    assert w.grad._values()[:, 0].tolist() == [1.5, 1.5]
    torch.optim.SGD([w], lr=1.0).step()
    assert w.detach()[1].tolist() == [0.0, 1.0]


def test_dense_writes_into_a_sparse_gradient_fail_instead_of_drifting():
    w = _weight()
    F.embedding(torch.tensor([0]), w, sparse=True).sum().backward()
    with pytest.raises(RuntimeError, match=r"add\(sparse, dense\) is not supported"):
        w.grad.add_(torch.ones(4, 2))
    with pytest.raises(ValueError):
        w.grad.fill_(0)
    assert w.grad.to_dense()[0].tolist() == [1.0, 1.0]
