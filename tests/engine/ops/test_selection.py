"""gather, index_select, sort, topk: names, values and gradients scattered back."""
import gradstep.engine as torch


def test_gather_and_its_gradient():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    g = x.gather(1, torch.tensor([[1, 1], [0, 1]]))
    assert g.tolist() == [[2.0, 2.0], [3.0, 4.0]] and type(g.grad_fn).__name__ == \
        "GatherBackward0"
    g.sum().backward()
    assert x.grad.tolist() == [[0.0, 2.0], [1.0, 1.0]]


def test_sort_and_topk():
    x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    s = x.sort()
    assert s.values.tolist() == [1.0, 2.0, 3.0] and s.indices.tolist() == [1, 2, 0]
    assert type(s.values.grad_fn).__name__ == "SortBackward0"
    top = torch.topk(x, 2)
    assert top.values.tolist() == [3.0, 2.0] and type(top.values.grad_fn).__name__ == \
        "TopkBackward0"
    (top.values * torch.tensor([10.0, 1.0])).sum().backward()
    assert x.grad.tolist() == [10.0, 0.0, 1.0]
    assert repr(s).startswith("torch.return_types.sort(\nvalues=")


def test_index_select_accumulates_repeats():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.index_select(x, 0, torch.tensor([2, 2, 0]))
    assert y.tolist() == [3.0, 3.0, 1.0]
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 2.0]
