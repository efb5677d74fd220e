# source: original
# topic: nn-functional
# compare: exact
# visibility: public
# F.pad with mode="reflect", "replicate" and "circular" on 1-D, 2-D and 3-D padding (with and
# without a batch dimension): values, the nodes (ReflectionPad1DBackward0 ... and CopySlices
# for circular), saved padding (negative amounts print as unsigned), gradients where padded
# copies add up, second derivatives, integer inputs, and PyTorch's errors.
import torch
import torch.nn.functional as F

x1 = torch.tensor([[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]], requires_grad=True)
x2 = torch.arange(1.0, 13.0).view(1, 1, 3, 4).requires_grad_()
x3 = torch.arange(1.0, 25.0).view(1, 2, 3, 4).requires_grad_()
cases = [(x1, (2, 1)), (x1, (-1, 2)), (x2, (1, 2, 2, 0)), (x2, (0, 0, -1, 1)),
         (x3, (1, 1, 1, 1, 1, 0))]
for mode in ["reflect", "replicate", "circular"]:
    for x, p in cases:
        y = F.pad(x, p, mode=mode)
        print(mode, p, type(y.grad_fn).__name__, tuple(y.shape))
        print(y)
        w = torch.arange(float(y.numel())).view(y.shape)
        (g,) = torch.autograd.grad((y * w).sum(), x)
        print(g)
    y = F.pad(x1[0], (1, 1), mode=mode)
    print("no batch", y, type(y.grad_fn).__name__)
    y = F.pad(x1, (2, -1), mode=mode)
    if mode != "circular":
        print(y.grad_fn._saved_padding, y.grad_fn._saved_self.shape)
    (g,) = torch.autograd.grad((y * y).sum(), x1, create_graph=True)
    print(g)
    print(torch.autograd.grad(g.sum(), x1))
    print(F.pad(torch.tensor([[1, 2, 3]]), (2, 2), mode=mode))
    print(F.pad(x1.detach().double(), (1, 0), mode=mode, value=0.0))
y = F.pad(x2, (1, 1, 1, 1), mode="replicate")
(g,) = torch.autograd.grad(y.sum(), x2, create_graph=True)
print(g, type(g.grad_fn).__name__, [type(n).__name__ for n, _ in g.grad_fn.next_functions])
n = F.pad(x1, (2, 1), mode="circular").grad_fn
print([type(m).__name__ for m, _ in n.next_functions])
print([type(m).__name__ for m, _ in n.next_functions[0][0].next_functions])
bad = [lambda: F.pad(x1, (1, 1), mode="wrap"), lambda: F.pad(x1, (1, 1), mode="reflect", value=2.0),
       lambda: F.pad(x1, (1,), mode="replicate"), lambda: F.pad(x2, (1, 1), mode="reflect"),
       lambda: F.pad(torch.ones(3), (1, 1), mode="replicate"),
       lambda: F.pad(x1, (1, 1, 1, 1, 1, 1, 1, 1), mode="reflect"),
       lambda: F.pad(torch.ones(2, 3), (1, 1, 1, 1), mode="circular"),
       lambda: F.pad(x1, (4, 0), mode="reflect"), lambda: F.pad(x2, (0, 0, 3, 0), mode="reflect"),
       lambda: F.pad(x3, (0, 0, 0, 0, 0, 2), mode="reflect"),
       lambda: F.pad(x1, (-4, 0), mode="replicate"), lambda: F.pad(x1, (5, 0), mode="circular"),
       lambda: F.pad(x1, (-3, -3), mode="circular"),
       lambda: F.pad(torch.ones(1, 0, 3), (1, 1), mode="reflect"),
       lambda: F.pad(torch.ones(1, 1, 0, 3), (1, 1, 1, 1), mode="replicate"),
       lambda: F.pad(torch.tensor([[[True, False]]]), (1, 0), mode="reflect"),
       lambda: F.pad(torch.tensor([[[[True, False]]]]), (1, 0, 0, 0), mode="replicate")]
for f in bad:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
print(F.pad(torch.tensor([[[True, False]]]), (1, 0), mode="circular"))
print(F.pad(torch.ones(0, 1, 2, 2), (1, 1, 1, 1), mode="reflect").shape)
