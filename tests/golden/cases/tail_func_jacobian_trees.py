# source: original
# topic: torch.func.jacrev, jacfwd and hessian over arguments that are trees of tensors: a
#   dict of a model's parameters through functional_call gives a dict of Jacobians, a tuple
#   argument a tuple, with argnums choosing several
# compare: exact
# visibility: public
import torch
import torch.nn as nn
from torch.func import functional_call, jacrev

model = nn.Linear(3, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]]))
    model.bias.copy_(torch.tensor([0.1, -0.2]))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]])


def f(p, xb):
    return functional_call(model, p, (xb,)).tanh()


jac = jacrev(f)(params, x)
print({k: tuple(v.shape) for k, v in jac.items()})
print(jac["bias"])
by_params, by_x = jacrev(f, argnums=(0, 1))(params, x)
print(by_params["weight"][0, 0], by_x.shape)
p = {"a": torch.tensor([1.0, 2.0]), "b": torch.tensor(3.0)}
print(jacrev(lambda p, x: x @ p["a"] + p["b"])(p, x[:, :2]))
print(jacrev(lambda t: (t[0] * t[1]).sum())((torch.ones(2), torch.tensor([3.0, 4.0]))))
print(jacrev(lambda t: {"s": t["u"].sin(), "c": t["u"].cos().sum()})({"u": torch.zeros(2)}))

# jacfwd and hessian take the same trees
from torch.func import hessian, jacfwd  # noqa: E402

print(jacfwd(f)(params, x)["weight"].shape)
print(jacfwd(lambda p, x: x @ p["a"] + p["b"], argnums=(0, 1))(p, x[:, :2])[0])
print(jacfwd(lambda t: (t[0] * t[1]).sum())((torch.ones(2), torch.tensor([3.0, 4.0]))))
print(hessian(lambda p: (p["a"] ** 3).sum() * p["b"])(p))
