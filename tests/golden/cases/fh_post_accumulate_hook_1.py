# source: original
# topic: hooks
# compare: exact
# visibility: public
# Tensor.register_post_accumulate_grad_hook: hook(tensor) after .grad has been accumulated,
# removable, leaves only; an optimizer step inside the hook; a hook must return None.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)


def show(t):
    print("hook sees", t.grad)


h = x.register_post_accumulate_grad_hook(show)
print(type(h).__name__)
(x * 3).sum().backward()
(x * 3).sum().backward()
h.remove()
(x * 3).sum().backward()
print(x.grad)
y = x * 2
try:
    y.register_post_accumulate_grad_hook(show)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.tensor([1.0]).register_post_accumulate_grad_hook(show)
except RuntimeError as e:
    print(type(e).__name__, e)

w = torch.tensor([1.0, 2.0], requires_grad=True)


def sgd_step(p):
    with torch.no_grad():
        p -= 0.1 * p.grad
    p.grad = None


w.register_post_accumulate_grad_hook(sgd_step)
(w ** 2).sum().backward()
print(w, w.grad)
q = torch.tensor([1.0], requires_grad=True)
q.register_post_accumulate_grad_hook(lambda t: t.grad * 2)
try:
    (q * 1).sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
