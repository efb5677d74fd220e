# source: original
# topic: dtypes
# compare: exact
# visibility: public
# numpy scalars meet tensors: np.sqrt(2) * x is a tensor on x's graph (numpy defers to the
# tensor), torch.tensor keeps a numpy scalar's or a 0-d tensor's dtype and promotes a list's.
import numpy as np
import torch

x = torch.tensor([1.0, 4.0], requires_grad=True)
y = np.sqrt(2) * x + np.float32(0.5)
print(y)
y.sum().backward()
print(x.grad)
print(np.float64(2.5) * torch.tensor(3.0, requires_grad=True), np.float32(2.0) - x)
print(np.int64(2) * torch.tensor([3]), np.float64(2) ** torch.ones(2), np.float64(2) > x)
print(torch.tensor(np.float64(2.5)), torch.tensor(np.float32(2.5)), torch.tensor(np.int32(3)),
      torch.tensor(np.int64(3)), torch.tensor(np.bool_(True)), torch.tensor(np.float16(1)))
print(torch.tensor([np.float64(1.0), 2.0]), torch.tensor([np.float32(1.5), 2]),
      torch.tensor([np.int32(1), np.int32(2)]), torch.tensor([True, np.int8(3)]),
      torch.tensor([np.uint8(3), np.int8(3)]), torch.tensor((np.int32(1), 2)))
losses = [np.float64(0.5), np.float64(0.25)]
print(torch.tensor(losses), torch.tensor(losses).mean().item())
a, b = torch.tensor(1.0), torch.tensor(2.0, dtype=torch.float64)
print(torch.tensor([a, a]), torch.tensor([a, b]),
      torch.tensor([torch.tensor(1, dtype=torch.int32), 2]))
print(torch.tensor([[], []]), torch.tensor([]).dtype)
print(torch.as_tensor(torch.ones(2, dtype=torch.int64), dtype=torch.float32))
print(torch.as_tensor(x, dtype=torch.float64))
