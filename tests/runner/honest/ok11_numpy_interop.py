import numpy as np
import torch
a = np.arange(6.0).reshape(2, 3)
print(a.shape, a.sum(), a.mean(axis=0), a.T.shape, a.dtype, a.max(), np.linalg.norm(a))
t = torch.tensor(a.tolist(), requires_grad=True)
s = (t * 2).sum()
s.backward()
g = t.grad.numpy()
print(g, type(g).__name__, np.allclose(g, 2.0), g.astype(np.float64).dtype)
print(np.zeros(3) + np.ones(3), np.dot([1, 2], [3, 4]), np.float32(1.5).item())
print(np.random.rand(2).shape, np.exp(0.0), np.sqrt(np.array([4.0, 9.0])))
