# source: original
# topic: nn.RNN and nn.GRU: layers, directions, batch_first, relu, no bias, dropout in eval, h0, unbatched input
# compare: exact
# visibility: public
import torch
torch.manual_seed(0)
x = torch.tensor([[[1.0, -2.0, 0.5], [0.0, 1.0, 3.0]], [[0.5, 0.5, -1.0], [2.0, 0.0, 1.0]],
                  [[-1.0, 1.0, 0.0], [0.3, -0.2, 0.1]]])
for cls, kw in ((torch.nn.RNN, {}), (torch.nn.RNN, {"num_layers": 2, "bidirectional": True}),
                (torch.nn.GRU, {"batch_first": True}), (torch.nn.RNN, {"nonlinearity": "relu", "bias": False}),
                (torch.nn.GRU, {"num_layers": 2, "dropout": 0.5})):
    m = cls(3, 2, **kw)
    m.eval()
    print(m, [n for n, _ in m.named_parameters()])
    xx = x.clone().requires_grad_()
    out, h = m(xx)
    print(out, h)
    (out.sum() + h.sum()).backward()
    for n, p in m.named_parameters():
        print(n, p.grad)
    print(xx.grad)
    print(out.grad_fn, h.grad_fn)
    o1, h1 = m(x[0])
    print(o1, h1)
h0 = torch.tensor([[[0.1, -0.2], [0.3, 0.4]]], requires_grad=True)
r = torch.nn.RNN(3, 2)
o, h = r(x, h0)
o.sum().backward()
print(h0.grad)
