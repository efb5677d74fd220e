"""The views forward mode makes: `make_dual`'s dual tensor, `unpack_dual`'s primal, and the
alias `torch.func.jvp` hands back as its primal output.

PyTorch counterparts: `torch._make_dual` (a view whose grad_fn is ViewBackward0),
`torch._unpack_dual`'s primal (a view whose grad_fn is the C++ Identity node) and `aten::alias`
(AliasBackward0). All pass the gradient through unchanged. The tangent itself is attached by
`engine/autograd/forward_ad.py`.
"""
from __future__ import annotations

from ..tensor import Tensor
from ._op import Op, OpNode


class MakeDual(Op):
    """out = self, as a view that will carry a tangent"""
    grad_fn_name, name, is_view = "ViewBackward0", "make_dual", True
    rule = "grad"

    def forward(self):
        return self.view()

    def backward(ctx, grad):
        return (grad,)

    def jvp(ctx, tangent):   # the dual tensor's tangent is the one given, set by make_dual
        return None

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


class IdentityNode(OpNode):
    """PyTorch's grad_fn of the unpacked primal is a C++ node seen from Python as a
    CppFunction; name() gives its qualified name, and a tensor prints it as <Identity>."""

    __slots__ = ()

    def name(self) -> str:
        return "torch::autograd::Identity"


class UnpackPrimal(Op):
    """out = self, as a view without the tangent"""
    grad_fn_name, name, is_view = "CppFunction", "unpack_dual", True
    node_base = IdentityNode
    cuts_tangent = True     # a view for the backward pass only: never reads a tangent
    rule = "grad"

    def forward(self):
        return self.view()

    def backward(ctx, grad):
        return (grad,)

    def jvp(ctx, tangent):   # the primal is the dual tensor without its tangent
        return None

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


class Alias(Op):
    """out = self, as a view of the whole of it"""
    grad_fn_name, name, is_view = "AliasBackward0", "alias", True
    jvp = "linear"
    rule = "grad"

    def forward(self):
        return self.view()

    def backward(ctx, grad):
        return (grad,)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


def make_dual_view(t: Tensor) -> Tensor:
    return MakeDual.apply(t)


def unpack_primal(t: Tensor) -> Tensor:
    primal = UnpackPrimal.apply(t)
    primal._x["fw_cut"] = True      # NOTE [tangents of views] in _tangents.py
    return primal
