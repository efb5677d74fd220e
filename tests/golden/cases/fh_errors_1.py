# source: original
# topic: errors
# compare: exact
# visibility: public
# Assigning .grad by hand: the size and dtype must match the tensor's.
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
for bad in [torch.ones(3), torch.tensor([1, 2]), torch.tensor([1.0, 2.0], dtype=torch.float64),
            torch.tensor([1, 2], dtype=torch.int32), torch.tensor([True, False])]:
    try:
        w.grad = bad
    except Exception as e:
        print(type(e).__name__, e)
w.grad = torch.tensor([0.5, 0.5])
(w * 2).sum().backward()
print(w.grad)
