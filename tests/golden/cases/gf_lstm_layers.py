# source: original
# topic: nn.LSTM: MkldnnRnnLayerBackward0 per layer and direction (float32), values and gradients, h0/c0, float64
# compare: numeric
# visibility: public
import torch
torch.manual_seed(0)
x = torch.tensor([[[1.0, -2.0, 0.5], [0.0, 1.0, 3.0]], [[0.5, 0.5, -1.0], [2.0, 0.0, 1.0]],
                  [[-1.0, 1.0, 0.0], [0.3, -0.2, 0.1]]])
for kw in ({}, {"num_layers": 2, "bidirectional": True}, {"batch_first": True}, {"bias": False}):
    m = torch.nn.LSTM(3, 2, **kw)
    print(m, [n for n, _ in m.named_parameters()])
    xx = x.clone().requires_grad_()
    out, (h, c) = m(xx)
    print(out, h, c)
    (out.sum() + h.sum() + 2 * c.sum()).backward()
    for n, p in m.named_parameters():
        print(n, p.grad)
    print(xx.grad)
    print(out.grad_fn.name(), h.grad_fn.name(), [f[0].name() if f[0] else None for f in out.grad_fn.next_functions])
    o1, (h1, c1) = m(x[0])
    print(o1, h1, c1)
h0 = torch.tensor([[[0.1, -0.2], [0.3, 0.4]]], requires_grad=True)
r = torch.nn.LSTM(3, 2).double()
o, (h, c) = r(x.double(), (h0.double(), h0.double()))
o.sum().backward()
print(h0.grad, o.grad_fn.name())
