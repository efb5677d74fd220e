# source: original
# topic: nn.RNNCell, nn.LSTMCell, nn.GRUCell: seeded initial weights, values, grad_fns, gradients, unbatched inputs
# compare: exact
# visibility: public
import torch
torch.manual_seed(0)
cell = torch.nn.RNNCell(3, 2)
print(cell)
for n, p in cell.named_parameters():
    print(n, p)
x = torch.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 3.0]])
h = cell(x)
print(h)
h2 = cell(x, h)
h2.sum().backward()
print(cell.weight_hh.grad)
print(h2.grad_fn, h2.grad_fn.next_functions)
print(cell(x[0]))
l = torch.nn.LSTMCell(3, 2)
h, c = l(x)
print(h, c)
(h.sum() + c.sum()).backward()
print(l.weight_ih.grad)
g = torch.nn.GRUCell(3, 2, bias=False)
print(g)
hh = g(x)
print(hh)
hh.sum().backward()
print(g.weight_hh.grad, g.weight_ih.grad)
print(torch.nn.RNNCell(3, 2, nonlinearity="relu")(x))
# backpropagation through time: one cell unrolled, the gradient reaching h0 through every step
torch.manual_seed(1)
cell = torch.nn.RNNCell(2, 2)
h0 = torch.zeros(1, 2, requires_grad=True)
h = h0
xs = torch.tensor([[[1.0, 0.0]], [[0.0, 1.0]], [[0.5, -0.5]]])
for t in range(3):
    h = cell(xs[t], h)
    h.retain_grad()
    print(t, h, h.grad_fn.next_functions[0][0].next_functions)
h.sum().backward()
print(h0.grad, cell.weight_hh.grad, cell.bias_ih.grad)
