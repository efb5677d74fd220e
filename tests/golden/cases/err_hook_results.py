# source: original
# topic: errors
# compare: exact
# visibility: public
# What a gradient hook may return: a tensor of the gradient's dtype and size (or None), and a
# grad_fn hook as many values as it got; otherwise PyTorch's words, naming the hook.
import torch


def attempt(label, hook, leaf=False):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x if leaf else x * 2
    y.register_hook(hook)
    try:
        (y * 3).sum().backward()
        print(label, "ok", x.grad)
    except Exception as e:
        print(label, type(e).__name__, e)


def clip_to_one(g):
    return g.clamp(max=1.0)


def wrong_size(g):
    return torch.ones(3)


attempt("clip", clip_to_one)
attempt("clip leaf", clip_to_one, leaf=True)
attempt("size", wrong_size)
attempt("size leaf", lambda g: torch.ones(3), leaf=True)
attempt("view", lambda g: g.view(2, 1))
attempt("double", lambda g: g.double(), leaf=True)
attempt("long", lambda g: torch.ones(2, dtype=torch.long))
attempt("number", lambda g: 5)
attempt("None", lambda g: None)

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0], grad_inputs[0]))
try:
    y.sum().backward()
except RuntimeError as e:
    print("node hook:", e)
y = x.exp()
y.grad_fn.register_prehook(lambda grad_outputs: (torch.ones(3),))
try:
    y.sum().backward()
except RuntimeError as e:
    print("node prehook:", e)
y = x.exp()
y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
y.sum().backward()
print(x.grad)
with torch.no_grad():
    z = x * 2
try:
    z.register_hook(print)
except RuntimeError as e:
    print(e)
