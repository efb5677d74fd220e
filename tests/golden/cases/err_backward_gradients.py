# source: original
# topic: the gradients handed to backward / autograd.grad: counts (extra ones ignored), shapes,
#   non-tensors, roots without grad, and only_inputs' deprecation
# compare: exact
# visibility: public
import numpy as np
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
for f in [lambda: torch.autograd.grad([y], [x], grad_outputs=[torch.ones(2), torch.ones(2)]),
          lambda: torch.autograd.grad([y, y], [x], grad_outputs=[torch.ones(2)]),
          lambda: torch.autograd.grad(y, x, grad_outputs=torch.ones(3)),
          lambda: torch.autograd.grad(y, x, grad_outputs=[None]),
          lambda: torch.autograd.grad(y.sum(), x, only_inputs=False),
          lambda: torch.autograd.grad(y.sum(), [x, x]),
          lambda: torch.autograd.grad(y.sum(), x.detach()),
          lambda: torch.autograd.grad(y.sum(), y),
          lambda: torch.autograd.grad(2.0, x),
          lambda: torch.autograd.grad(y.sum(), 3.0),
          lambda: torch.autograd.backward(y, [torch.ones(2), torch.ones(2)]),
          lambda: torch.autograd.backward([y.sum()], None),
          lambda: torch.autograd.backward(y, grad_tensors=torch.ones(2), inputs=[x]),
          lambda: y.backward(torch.ones(2, 1)),
          lambda: y.backward(torch.ones(2, dtype=torch.float64)),
          lambda: y.backward([1.0, 1.0]),
          lambda: torch.autograd.grad(y, x, torch.ones(2), True, False, True),
          ]:
    try:
        r = f()
        print("ok", r, x.grad)
    except Exception as e:
        print(type(e).__name__, e)
x2 = torch.ones(2, requires_grad=True)
for f in [lambda: (x2 * 2).backward(np.ones(2)),
          lambda: torch.autograd.backward([x2 * 2, x2.sum()], [torch.ones(2)]),
          lambda: torch.autograd.backward([torch.ones(2), x2.sum()], [torch.ones(3), None]),
          lambda: torch.autograd.backward([torch.ones(2), x2.sum()]),
          lambda: torch.autograd.backward([x2.sum(), x2 * 3],
                                          [None, torch.ones(2), torch.ones(5)])]:
    try:
        f()
        print("ok", x2.grad)
    except Exception as e:
        print(type(e).__name__, e)
