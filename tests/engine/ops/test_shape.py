"""Shape and indexing ops: PyTorch's decomposition of indexing into nodes, view semantics,
cat/stack/split, dtype casts and the error texts (recorded from PyTorch 2.13)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from names import chain, env

import gradstep.engine as torch

ACC = "AccumulateGrad"
CASES = [
    ("M.t()", "TBackward0", [ACC]), ("M.T", "PermuteBackward0", [ACC]),
    ("M.transpose(0, 1)", "TransposeBackward0", [ACC]), ("M.permute(1, 0)", "PermuteBackward0",
                                                        [ACC]),
    ("M.reshape(6)", "ViewBackward0", [ACC]), ("M.view(6)", "ViewBackward0", [ACC]),
    ("M.flatten()", "ViewBackward0", [ACC]),
    ("M.reshape(1, 2, 3).squeeze()", "SqueezeBackward0", ["ViewBackward0"]),
    ("M.reshape(1, 2, 3).squeeze(0)", "SqueezeBackward1", ["ViewBackward0"]),
    ("M.unsqueeze(0)", "UnsqueezeBackward0", [ACC]), ("a.expand(2, 3)", "ExpandBackward0", [ACC]),
    ("torch.cat([a, b])", "CatBackward0", [ACC, ACC]),
    ("torch.stack([a, b])", "StackBackward0", [ACC, ACC]),
    ("a[0]", "SelectBackward0", [ACC]), ("a[1:]", "SliceBackward0", [ACC]),
    ("a[[0, 2]]", "IndexBackward0", [ACC]), ("a[a > 1]", "IndexBackward0", [ACC]),
    ("M[0, 1]", "SelectBackward0", ["SelectBackward0"]), ("M[:, 1]", "SelectBackward0", [ACC]),
    ("M[None]", "UnsqueezeBackward0", [ACC]), ("M[..., 0]", "SelectBackward0", [ACC]),
    ("M[0, :2]", "SliceBackward0", ["SelectBackward0"]), ("a.clone()", "CloneBackward0", [ACC]),
    ("a.double()", "ToCopyBackward0", [ACC]), ("a.masked_fill(a > 1, 0)",
                                               "MaskedFillBackward0", [ACC]),
    ("a.repeat(2)", "RepeatBackward0", [ACC]), ("a.split(1)[0]", "SplitBackward0", [ACC]),
    ("a.chunk(3)[0]", "SplitBackward0", [ACC]), ("a.unbind()[0]", "UnbindBackward0", [ACC]),
    ("a.flip(0)", "FlipBackward0", [ACC]),
]


@pytest.mark.parametrize("expr,name,nexts", CASES, ids=[c[0] for c in CASES])
def test_grad_fn_names_match_pytorch(expr, name, nexts):
    assert chain(eval(expr, env())) == (name, nexts)


def test_slice_saves_pytorch_bounds():
    g = env()["a"][1:].grad_fn
    assert (g._saved_dim, g._saved_start, g._saved_end, g._saved_step) == (
        0, 1, 9223372036854775807, 1)


def test_views_share_storage_and_version():
    base = torch.zeros(2, 3)
    v = base[0]
    v[1] = 5.0
    assert base.tolist()[0] == [0.0, 5.0, 0.0] and base._version == v._version == 1
    assert not torch.ones(2).float().requires_grad


def test_indexing_gradients():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x[[0, 0, 2]].sum() + x[1:].sum() * 10).backward()
    assert x.grad.tolist() == [2.0, 10.0, 11.0]


def test_split_with_unused_pieces():
    x = torch.arange(4.0, requires_grad=True)
    parts = x.split(2)
    (parts[1] * 3).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 3.0, 3.0]


def test_cat_and_stack_gradients():
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    (torch.cat([a, b]) * torch.arange(5.0)).sum().backward()
    assert a.grad.tolist() == [0.0, 1.0] and b.grad.tolist() == [2.0, 3.0, 4.0]


@pytest.mark.parametrize("expr,message", [
    ("torch.ones(2, 3).view(-1, 4)", "shape '[-1, 4]' is invalid for input of size 6"),
    ("torch.ones(3)[5]", "index 5 is out of bounds for dimension 0 with size 3"),
    ("torch.ones(2, 3).transpose(0, 2)",
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    ("torch.cat([torch.ones(2), torch.ones(2, 1)])",
     "Tensors must have same number of dimensions: got 1 and 2"),
    ("torch.stack([torch.ones(2), torch.ones(3)])",
     "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1"),
    ("torch.ones(2, 3).expand(3, 3)",
     "The expanded size of the tensor (3) must match the existing size (2) at non-singleton "
     "dimension 0.  Target sizes: [3, 3].  Tensor sizes: [2, 3]"),
])
def test_errors(expr, message):
    with pytest.raises((RuntimeError, IndexError)) as e:
        eval(expr)
    assert str(e.value) == message


def test_view_needs_compatible_strides_reshape_copies():
    m = torch.ones(2, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^view size is not compatible with input tensor's "
                                           r"size and stride"):
        m.t().view(6)
    r = m.t().reshape(6)
    assert chain(r) == ("UnsafeViewBackward0", ["CloneBackward0"])
    assert chain(m.reshape(3, 2)) == ("ViewBackward0", [ACC])


def test_cat_size_mismatch_message():
    with pytest.raises(RuntimeError) as e:
        torch.cat([torch.ones(2, 3), torch.ones(2, 2)])
    assert str(e.value) == ("Sizes of tensors must match except in dimension 0. Expected size "
                            "3 but got size 2 for tensor number 1 in the list.")
