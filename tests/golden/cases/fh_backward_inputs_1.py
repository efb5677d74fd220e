# source: original
# topic: errors
# compare: exact
# visibility: public
# backward(inputs=...): empty lists and tensors that do not require grad are refused.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.ones(2)
for f in [lambda: torch.autograd.backward(x.sum(), inputs=[]),
          lambda: x.sum().backward(inputs=[]),
          lambda: x.sum().backward(inputs=[torch.ones(1)]),
          lambda: (x * c).sum().backward(inputs=[x, c]),
          lambda: (x * 2).sum().backward(inputs=x),
          lambda: (x * 2).backward(inputs=[x]),
          lambda: torch.ones(1).sum().backward(inputs=[x])]:
    try:
        f()
        print("ok", x.grad)
    except Exception as e:
        print(type(e).__name__, e)
