# source: original
# topic: nn
# compare: exact
# visibility: public
# nn.ParameterDict: construction from a dict (keys sorted), from pairs and an OrderedDict
# (order kept), tensors turned into Parameters, repr, dict methods, registration in a model's
# parameters and state_dict, training it with an optimizer, and its errors.
from collections import OrderedDict

import torch
import torch.nn as nn

pd = nn.ParameterDict({"w": nn.Parameter(torch.ones(2, 3)), "b": torch.zeros(3)})
print(pd)
print(len(pd), list(pd.keys()), "w" in pd, "x" in pd, type(pd["b"]).__name__,
      pd["b"].requires_grad)
pd["scale"] = torch.tensor(2.0)
pd.update([("extra", torch.ones(1, dtype=torch.float64)), ("name", "not a tensor")])
print(pd)
print([n for n, _ in pd.named_parameters()])
for k, v in pd.items():
    print(k, type(v).__name__)
print(type(pd.pop("extra")).__name__, list(pd), pd.get("nope"), pd.get("w").shape)
del pd["name"]
print(pd.setdefault("bias", torch.full((2,), 0.5)), list(reversed(pd)))
print(nn.ParameterDict(OrderedDict([("z", torch.ones(1)), ("a", torch.ones(2))])))
print(list(pd.copy().keys()), list((pd | {"q": torch.ones(1)}).keys()))
print(list(pd.fromkeys(["k1", "k2"]).items()))
print(pd.popitem()[0], list(pd))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.params = nn.ParameterDict({
            "weight": nn.Parameter(torch.tensor([[1.0, -1.0], [0.5, 2.0]])),
            "bias": nn.Parameter(torch.tensor([0.1, -0.1]))})

    def forward(self, x):
        return x @ self.params["weight"] + self.params["bias"]


net = Net()
print(net)
print(list(net.state_dict().keys()))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.tensor([[1.0, 2.0], [-1.0, 0.5]])
for _ in range(3):
    opt.zero_grad()
    loss = net(x).pow(2).mean()
    loss.backward()
    opt.step()
    print(loss, net.params["bias"].grad)
print(net.params["weight"])


def int_key():
    pd[3] = torch.ones(1)


for bad in [lambda: pd["nope"], lambda: pd(1), lambda: pd.update(3),
            lambda: pd.update([1, 2]), lambda: pd.update([("a", 1, 2)]),
            int_key]:
    try:
        bad()
    except (AttributeError, RuntimeError, TypeError, ValueError) as e:
        print(type(e).__name__, e)
