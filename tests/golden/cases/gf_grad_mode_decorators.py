# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# no_grad, enable_grad and inference_mode also decorate without parentheses (PyTorch 2);
# an inference tensor cannot be made to require grad outside inference mode.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)


@torch.no_grad
def doubled(t):
    return t * 2


@torch.inference_mode
def tripled(t):
    return t * 3


@torch.enable_grad
def squared(t):
    return t * t


@torch.inference_mode(False)
def plus_one(t):
    return t + 1


@torch.set_grad_enabled(False)
def minus_one(t):
    return t - 1


print(doubled(x), doubled.__name__)
y = tripled(x)
print(y, y.is_inference())
with torch.no_grad():
    print(squared(x))
print(plus_one(x), minus_one(x), torch.is_grad_enabled())

with torch.inference_mode():
    t = torch.ones(2)
for label, fn in [("method", lambda: t.requires_grad_()),
                  ("attribute", lambda: setattr(t, "requires_grad", True)),
                  ("False", lambda: t.requires_grad_(False))]:
    try:
        fn()
        print(label, "ok", t.requires_grad)
    except RuntimeError as e:
        print(label, e)
try:
    t.add_(1)
except RuntimeError as e:
    print(e)
with torch.inference_mode():
    t.requires_grad_()
    print(t.requires_grad)
