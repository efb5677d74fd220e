# source: original
# topic: training
# compare: exact
# visibility: public
# nn.utils: clip_grad_norm_ returns the total norm (the norm of the per-gradient norms) and
# scales every gradient in place by min(max_norm / (norm + 1e-6), 1); clip_grad_value_ clamps;
# parameters_to_vector / vector_to_parameters flatten and refill.
import torch
import torch.nn as nn

w = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
b = torch.tensor([0.1, -0.2], requires_grad=True)
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]])


def fresh_grads(scale):
    w.grad = b.grad = None
    ((x @ w.t() + b) ** 2 * scale).sum().backward()


fresh_grads(1.0)
print(w.grad, b.grad)
total = nn.utils.clip_grad_norm_([w, b], max_norm=1.0)
print(total, total.requires_grad)
print(w.grad.tolist(), b.grad.tolist())
fresh_grads(0.001)
print(nn.utils.clip_grad_norm_([w, b], max_norm=5.0).item(), w.grad.tolist())
fresh_grads(1.0)
print(nn.utils.clip_grad_norm_([w, b], 2.0, norm_type=1).item(), b.grad.tolist())
fresh_grads(1.0)
print(nn.utils.clip_grad_norm_([w, b], 2.0, norm_type=float("inf")).item(), b.grad.tolist())
fresh_grads(1.0)
print(nn.utils.clip_grad_norm_(w, 3.0).item(), b.grad.tolist())
print(nn.utils.clip_grad_norm_([], 1.0))
fresh_grads(1.0)
print(nn.utils.clip_grad_value_([w, b], clip_value=10.0), w.grad, b.grad)
v = nn.utils.parameters_to_vector([w, b])
print(v, v.shape)
nn.utils.vector_to_parameters(torch.arange(8.0), [w, b])
print(w, b)
w.grad[0, 0] = float("nan")
try:
    nn.utils.clip_grad_norm_([w, b], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print(e)
print(nn.utils.clip_grad_norm_([w, b], 1.0))
print(torch.tensor([1.0, float("inf"), float("nan")]).isinf(),
      torch.tensor([1.0, float("inf"), float("nan")]).isfinite())
