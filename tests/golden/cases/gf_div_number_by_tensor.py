# source: original
# topic: torch.div(2., w) records DivBackward0; the operator 2. / w is reciprocal times 2
# compare: exact
# visibility: public
import torch

w = torch.tensor([1.0, 3.0, 7.0], requires_grad=True)
for y in (torch.div(2.0, w), 2.0 / w, torch.div(3, w), torch.true_divide(1.5, w)):
    print(y, type(y.grad_fn).__name__, [type(f).__name__ for f, _ in y.grad_fn.next_functions])
    y.sum().backward()
    print(w.grad.tolist())
    w.grad = None
y = torch.div(2.0, w)
print(y.grad_fn._saved_self, y.grad_fn._saved_other)
i = torch.tensor([1, 2, 4])
print(torch.div(3, i), torch.div(3.0, i), torch.div(2.0, torch.tensor([3.0], dtype=torch.float64)))
