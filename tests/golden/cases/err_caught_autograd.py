# source: original
# topic: errors
# compare: exact
# visibility: public
# Autograd errors, caught and printed as "Type message".
import torch


def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.tensor([1.0, 2.0], requires_grad=True)
attempt("non-scalar", lambda: (x * 2).backward())
attempt("no grad_fn", lambda: torch.tensor([1.0]).sum().backward())
y = (x ** 2).sum()
y.backward()
attempt("twice", lambda: y.backward())
attempt("leaf in-place", lambda: x.mul_(2))
attempt("leaf zero_", lambda: x.zero_())
attempt("int requires_grad", lambda: torch.tensor([1, 2], requires_grad=True))
attempt("int requires_grad_", lambda: torch.arange(3).requires_grad_())
attempt("numpy", lambda: x.numpy())
nonleaf = x * 2
attempt("non-leaf requires_grad=False", lambda: nonleaf.requires_grad_(False))
attempt("retain_grad no grad", lambda: torch.ones(2).retain_grad())
attempt("hook no grad", lambda: torch.ones(2).register_hook(lambda g: g))
z = torch.tensor(3.0, requires_grad=True)
unused = torch.tensor(4.0, requires_grad=True)
attempt("unused", lambda: torch.autograd.grad(z * 2, [z, unused]))
print(torch.autograd.grad(z * 2, [z, unused], allow_unused=True))
attempt("not requiring grad", lambda: torch.autograd.grad(z * 2, [torch.tensor(1.0)]))
attempt("grad non-scalar", lambda: torch.autograd.grad(x * 2, x))
attempt("item", lambda: x.item())
attempt("float", lambda: float(torch.ones(3)))
a = torch.tensor([1.0, 2.0], requires_grad=True)
s = a.sigmoid()
s.add_(1)
attempt("saved modified", lambda: s.sum().backward())
w = torch.tensor([1.0, 2.0], requires_grad=True)
t = w.tanh()
t.data.mul_(0)
attempt("via .data", lambda: t.sum().backward())
print(w.grad)
