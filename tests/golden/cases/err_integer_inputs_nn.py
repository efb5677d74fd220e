# source: original
# topic: errors
# compare: exact
# visibility: public
# Integer tensors (torch.tensor([1, 2]) is int64) given to softmax, activations and pointwise
# losses: PyTorch's CPU kernels refuse them and name the kernel; dtype= or .float() is the cure.
import torch
import torch.nn.functional as F

a = torch.tensor([[1, 2], [3, 4]])
attempts = [
    lambda: torch.softmax(a, 1), lambda: torch.softmax(a, 0), lambda: F.softmax(a, dim=-1),
    lambda: a.softmax(0), lambda: torch.log_softmax(a, 1), lambda: F.log_softmax(a, 0),
    lambda: torch.softmax(a.bool(), 0), lambda: torch.softmax(torch.tensor([1, 2]), 0),
    lambda: torch.softmax(a, 0, dtype=torch.float32), lambda: F.softmax(a, 1, dtype=torch.float64),
    lambda: F.cross_entropy(a, torch.tensor([0, 1])),
    lambda: F.mse_loss(a, a), lambda: F.mse_loss(a.float(), a), lambda: F.mse_loss(a.int(), a),
    lambda: F.smooth_l1_loss(a, a), lambda: F.huber_loss(a, a), lambda: F.l1_loss(a, a),
    lambda: F.gelu(a), lambda: F.silu(a), lambda: F.leaky_relu(a), lambda: F.softplus(a),
    lambda: torch.nn.GELU()(a), lambda: F.relu(a), lambda: torch.tanh(a),
]
for attempt in attempts:
    try:
        print(attempt())
    except (NotImplementedError, RuntimeError) as e:
        print(type(e).__name__, e)

print(a.softmax(0, dtype=torch.float64), a.log_softmax(dim=1, dtype=torch.float32))
