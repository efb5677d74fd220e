# source: original
# topic: torch.diff (SubBackward0 over SliceBackward0; n, dim, prepend / append through
#   CatBackward0, bools, n=0's CopyBackwards) and torch.kron (UnsafeViewBackward0 over
#   MulBackward0), with their Tensor methods, gradients and errors
# compare: exact
# visibility: public
import torch


def names(t):
    fn = t.grad_fn
    return fn.name(), [n.name() if n is not None else None for n, _ in fn.next_functions]


a = torch.tensor([[1.0, 4.0, 9.0, 16.0], [2.0, 3.0, 5.0, 7.5]], requires_grad=True)
for kwargs in [{}, {"n": 2}, {"dim": 0}, {"n": 3, "dim": 1}, {"n": 9},
               {"prepend": torch.zeros(2, 1), "append": torch.ones(2, 2)}, {"n": 0}]:
    a.grad = None
    y = torch.diff(a, **kwargs)
    print(y, names(y))
    y.backward(torch.arange(1.0, y.numel() + 1).reshape(y.shape))
    print("  grad", a.grad)
ints = torch.tensor([1], dtype=torch.int64)
print(a.diff(dim=-2), torch.diff(torch.tensor([True, False, False, True])),
      torch.diff(torch.tensor([1, 5, 2])), torch.diff(torch.tensor([1.0, 2.0]), prepend=ints))
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
w = torch.tensor([[0.0, 1.0, -1.0]], requires_grad=True)
k = torch.kron(x, w)
print(k, names(k), [n.name() for n, _ in k.grad_fn.next_functions[0][0].next_functions])
k.backward(torch.arange(12.0).reshape(2, 6))
print(x.grad, w.grad)
print(x.kron(torch.tensor([2.0, 3.0])), torch.kron(torch.tensor(2.0), torch.tensor([1.0, 2.0])),
      torch.kron(torch.tensor([1, 2]), torch.tensor([1.0, 0.5])).dtype,
      torch.kron(torch.ones(2, 1, 2), torch.tensor([[1, 2]])).shape)
for f in [lambda: torch.diff(torch.tensor(1.0)), lambda: torch.diff(a, n=-1),
          lambda: torch.diff(a, dim=2), lambda: torch.diff(a, prepend=torch.zeros(3, 1)),
          lambda: torch.diff(a, append=torch.zeros(2)), lambda: torch.diff(a, prepend=1.0),
          lambda: torch.kron(x, 2.0), lambda: x.kron([2.0])]:
    try:
        f()
    except (RuntimeError, IndexError, TypeError) as e:
        print(type(e).__name__, e)
