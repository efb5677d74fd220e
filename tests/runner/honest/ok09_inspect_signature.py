import inspect
import torch
params = list(inspect.signature(torch.Tensor.backward).parameters)
print(params)


def f(a, b=2, *rest, c, **kw):
    return a


sig = inspect.signature(f)
print([p.name for p in sig.parameters.values()], sig.parameters["b"].default)
