# source: original
# topic: the views ModuleDict and ParameterDict hand out: keys(), values() and items() of the
#   plain dicts PyTorch keeps modules in
# compare: exact
# visibility: public
import torch
import torch.nn as nn

heads = nn.ModuleDict({"cls": nn.Linear(2, 3), "reg": nn.Linear(2, 1)})
heads["act"] = nn.ReLU()
print(heads.keys())
print(heads.values())
print(heads.items())
print(list(heads), len(heads), "reg" in heads)
del heads["reg"]
print(heads.keys())
scales = nn.ParameterDict({"a": nn.Parameter(torch.ones(2)), "b": nn.Parameter(torch.zeros(1))})
print(scales.keys())
print(list(scales.values()))
print(list(scales.items()))
print(heads.pop("act"), heads.keys())
heads.update([("b", nn.Tanh()), ("c", nn.Sigmoid())])
heads.update({"c": nn.Identity()})
print(heads)
for bad in [3, [("x",)], [3]]:
    try:
        heads.update(bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
heads.clear()
print(heads, len(heads))

layers = nn.ModuleList([nn.Linear(2, 2), nn.ReLU(), nn.Tanh(), nn.Sigmoid()])
del layers[1]
print(layers)
print(layers.pop(-1), len(layers))
del layers[0:1]
both = layers + nn.ModuleList([nn.ReLU()])
print(type(both).__name__, both)
print([name for name, _ in both.named_modules()])
