# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# einsum for one and two operands: PyTorch decomposes it into diagonal, unsqueeze, permute,
# sum, mul and bmm, so the graph shows those nodes. Values, the whole graph and gradients.
import torch


def graph(t):
    lines, stack = [], [(t.grad_fn, 0)]
    while stack:
        fn, depth = stack.pop()
        lines.append("  " * depth + (type(fn).__name__ if fn is not None else "None"))
        if fn is not None:
            stack.extend((f, depth + 1) for f, _ in reversed(fn.next_functions))
    return "\n".join(lines)


A = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], requires_grad=True)
B = torch.tensor([[1.0, -1.0], [0.5, 2.0], [3.0, 0.0]], requires_grad=True)
x = torch.tensor([1.0, 2.0, -1.0], requires_grad=True)
y = torch.tensor([0.5, -3.0, 2.0], requires_grad=True)
C = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
D = torch.arange(12.0).reshape(2, 3, 2).div(4).requires_grad_()
cases = [("ij,jk->ik", (A, B)), ("i,i->", (x, y)), ("ij->ji", (A,)), ("bij,bjk->bik", (C, D)),
         ("ii->i", (A,)), ("ii", (A,)), ("ij->", (A,)), ("ij->j", (A,)), ("i,j->ij", (x, y)),
         ("ij,j->i", (A, x)), ("ij,jk", (A, B)), ("ji,jk->ki", (A, B)), ("ij,ij->i", (A, A * 2)),
         ("i j , j k -> k i", (A, B))]
for eq, ops in cases:
    for t in (A, B, x, y, C, D):
        t.grad = None
    out = torch.einsum(eq, *ops)
    print(eq, out)
    print(graph(out))
    out.backward(torch.ones_like(out) * 0.5)
    print(" grads", [t.grad for t in ops if t.is_leaf])
print(torch.einsum("i,i", [x, y]))
