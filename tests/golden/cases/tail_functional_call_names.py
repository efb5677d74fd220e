# source: original
# topic: torch.func
# compare: exact
# visibility: public
# functional_call with dotted names into submodules, buffers, a name the module lacks, and the
# errors for a path through something that is not a module.
import torch
from torch.func import functional_call

torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
x = torch.tensor([[1., -1.]])
print(m(x))
params = {"0.weight": torch.eye(2), "2.weight": torch.tensor([[1., 2.]])}
print(functional_call(m, params, x))
print(m[0].weight)
bn = torch.nn.BatchNorm1d(2).eval()
print(functional_call(bn, {"running_mean": torch.tensor([1., 1.])}, (x,)))
print(bn.running_mean)
for k in ("forward.x", "0.nothere", "5.weight", "0.weight.x"):
    try:
        print(functional_call(m, {k: torch.ones(1, 1)}, (x,)).shape)
    except Exception as e:
        print(type(e).__name__, e)
