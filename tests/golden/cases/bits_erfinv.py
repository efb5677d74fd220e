# source: original
# topic: torch.erfinv to the last digits, float32 and float64
# compare: numeric
# visibility: public
# erfinv's values printed in full: PyTorch's CPU kernel is MKL's vector ErfInv, which gradstep
# matches to within one float32 ulp (most values bit for bit), so the comparison is numeric.
import torch

ys = [0.0, 1e-30, -3e-8, 1e-5, 0.1, -0.3, 0.5, 0.7, -0.70001, 0.9, 0.99, -0.999, 0.999999,
      1.0 - 2.0 ** -24, 1.0 - 2.0 ** -53, 1.0, 1.5]
print(torch.erfinv(torch.tensor(ys)).tolist())
print(torch.erfinv(torch.tensor(ys, dtype=torch.float64)).tolist())
x = torch.linspace(-0.95, 0.95, 9, dtype=torch.float64, requires_grad=True)
y = torch.special.erfinv(x)
print(y.tolist())
y.sum().backward()
print(x.grad.tolist())
print(torch.erfinv(torch.tensor(0.3)).item(), torch.tensor(-0.8).erfinv().item())
