# source: original
# topic: einsum
# compare: exact
# visibility: public
# torch.einsum with ellipses ("...", broadcast like leading dimensions, implicit and explicit
# output) and with three or four operands (contracted left to right, each product feeding the
# next): results, the chain of nodes PyTorch records (which operand is bmm's first), gradients,
# and PyTorch's errors for bad ellipses, sizes and subscripts.
import torch


def T(*shape, off=0.0):
    n = 1
    for s in shape:
        n *= s
    return ((torch.arange(float(n)) + off) * 0.37).sin().view(shape).requires_grad_()


def chain(fn, depth=0):
    # the graph below fn, one node a line, inputs indented under their user
    if fn is None or type(fn).__name__ == "AccumulateGrad":
        return
    print("  " * depth + type(fn).__name__)
    for n, _ in fn.next_functions:
        chain(n, depth + 1)


cases = [("...ij,...jk->...ik", [T(2, 2, 3), T(3, 4)]), ("...,...->...", [T(2, 3), T(3)]),
         ("i...->...", [T(2, 3, 4)]), ("...ii->...i", [T(2, 3, 3)]),
         ("b...,b...->b", [T(2, 3, 4), T(2, 3, 4)]), ("ij...,jk...", [T(2, 3, 5), T(3, 4, 5)]),
         ("...i,i", [T(4, 3), T(3)]), ("ij,jk,kl->il", [T(2, 3), T(3, 4), T(4, 5)]),
         ("ij,jk,kl", [T(2, 3), T(3, 4), T(4, 2)]), ("i,i,i->", [T(3), T(3, off=1), T(3, off=2)]),
         ("i,j,k->ijk", [T(2), T(3), T(4)]),
         ("bij,bjk,bkl->bil", [T(2, 2, 3), T(2, 3, 4), T(2, 4, 2)]),
         ("ij,jk,kl,lm->im", [T(2, 3), T(3, 4), T(4, 2), T(2, 3)]),
         ("ab,bc,ca->", [T(2, 3), T(3, 4), T(4, 2)]), ("i,ij,j->", [T(3), T(3, 4), T(4)]),
         ("ij,ij,ij->ij", [T(2, 3), T(2, 3), T(2, 3)]),
         ("...j,j...,...->...", [T(2, 3), T(3, 2), T(2)]),
         ("ik,jk,k->ij", [T(2, 3), T(4, 3), T(3)]), ("ji,jk,kl->li", [T(3, 2), T(3, 4), T(4, 2)]),
         ("jk,ij,kl->li", [T(3, 4), T(2, 3), T(4, 5)])]
for eq, ops in cases:
    y = torch.einsum(eq, *ops)
    print(eq, tuple(y.shape))
    print(y)
    chain(y.grad_fn)
    y.backward(torch.ones_like(y))
    for o in ops:
        print(o.grad)
print(torch.einsum("ij,jk,kl->il", [T(2, 2), T(2, 2), T(2, 2)]))
bad = [("....,i", [T(2), T(2)]), ("..i..., i", [T(2), T(2)]), ("...i,...j->...j...", [T(2), T(2)]),
       ("...i->..", [T(2)]), ("...ij,...jk", [T(2, 3, 3), T(4, 3, 3)]), ("ijk", [T(2, 3)]),
       ("...ijk", [T(2, 3)]), ("i,i", [T(2), T(3)]), ("ii", [T(2, 3)]), ("i,i", [T(2)]),
       ("i", [T(2), T(2)]), ("i1", [T(2)]), ("i->i1", [T(2)]), ("i->ii", [T(2)]),
       ("i->j", [T(2)]), ("ij,jk,kl", [T(2, 3), T(3, 4), T(5, 2)])]
for eq, ops in bad:
    try:
        print(torch.einsum(eq, *ops))
    except RuntimeError as e:
        print(eq, "RuntimeError", e)
