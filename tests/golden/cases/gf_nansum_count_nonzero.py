# source: original
# topic: torch.nansum (NansumBackward0: nan counts as 0, its gradient 0 there; dim, keepdim,
#   dtype) and torch.count_nonzero (int64, no grad_fn), with their Tensor methods and errors
# compare: exact
# visibility: public
import torch
nan = float("nan")
a = torch.tensor([[1.5, nan, 2.25], [nan, -3.0, 0.0]], requires_grad=True)
for kwargs in [{}, {"dim": 1}, {"dim": 0, "keepdim": True}, {"dim": (0, 1)}, {"dim": []},
               {"dim": -1, "dtype": torch.float64}]:
    a.grad = None
    y = torch.nansum(a, **kwargs)
    print(y, y.grad_fn._saved_dim, y.grad_fn._saved_keepdim, y.grad_fn._saved_self is a,
          [type(n).__name__ for n, _ in y.grad_fn.next_functions])
    y.sum().backward()
    print("  grad", a.grad)
print(a.nansum(), a.nansum(1, keepdim=True), torch.sum(a))
print(torch.nansum(torch.tensor([1, 2, 3])), torch.nansum(torch.tensor([True, True])),
      torch.nansum(torch.tensor(nan)), torch.nansum(torch.tensor([1, 2], dtype=torch.int32)))
x = torch.tensor([0.1, 0.2, 0.3, nan, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.1, 1.3, 1.7, 1.9, 2.3, 2.9,
                  3.1, 3.7])
print(torch.nansum(x).item())
print(torch.count_nonzero(a), torch.count_nonzero(a, dim=0), torch.count_nonzero(a, (0, 1)),
      a.count_nonzero(-1), torch.count_nonzero(torch.tensor(0.0)),
      torch.count_nonzero(torch.tensor([True, False, True])))
for f in [lambda: torch.count_nonzero(a, dim=(0, 0)), lambda: torch.count_nonzero(a, dim=2),
          lambda: torch.nansum(a, dim=3), lambda: torch.count_nonzero([1, 0])]:
    try:
        f()
    except (RuntimeError, IndexError, TypeError) as e:
        print(type(e).__name__, e)
