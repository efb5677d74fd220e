# source: original
# topic: legacy API
# compare: exact
# visibility: public
# A pre-0.4 tutorial: one `dtype` chosen at the top (the CUDA type exists on a CPU build), every
# tensor made with .type(dtype), Variables (volatile is gone), labels cast to LongTensor.
import torch
from torch.autograd import Variable

dtype = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor
print(dtype, torch.cuda.FloatTensor, dtype.dtype, dtype.is_cuda, torch.cuda.FloatTensor.is_cuda)
torch.manual_seed(0)
x = Variable(torch.randn(4).type(dtype), requires_grad=False)
w = Variable(torch.tensor([0.5, -1.0, 2.0, 0.25]).type(dtype), requires_grad=True)
for t in range(3):
    loss = ((x * w - 1) ** 2).sum()
    loss.backward()
    w.data -= 0.1 * w.grad.data
    w.grad.data.zero_()
    print(t, round(loss.item(), 4), w.data)

labels = torch.tensor([0.0, 1.0, 2.9]).type(torch.LongTensor)
print(labels, labels.type(), isinstance(labels, torch.LongTensor),
      isinstance(labels, torch.FloatTensor), isinstance(labels, torch.cuda.LongTensor))
print(torch.ShortTensor(2).zero_(), torch.CharTensor([1, 2]), torch.HalfTensor([1.5]))
print(w.type("torch.DoubleTensor").dtype, w.type(torch.float64).dtype, labels.type(torch.Tensor))
print(w.type(torch.DoubleTensor).grad_fn.name(), w.type(torch.IntTensor).requires_grad)
print(w.type(torch.LongTensor, non_blocking=True), x.type(dtype=torch.IntTensor).dtype)
print(torch.FloatTensor, type(torch.FloatTensor(2)).__name__, torch.FloatTensor.__name__,
      issubclass(torch.FloatTensor, torch.Tensor))
for bad in ("torch.foo", "float", 5, float, torch.nn.Linear, torch.cuda.FloatTensor,
            "torch.cuda.LongTensor"):
    try:
        x.type(bad)
    except (ValueError, TypeError, RuntimeError) as e:
        print(type(e).__name__, str(e)[:60])
for bad in (lambda: torch.cuda.FloatTensor(2), lambda: torch.cuda.no_such_thing):
    try:
        bad()
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)
v = Variable(torch.ones(3), volatile=True)
print(v.requires_grad, Variable(torch.ones(1), volatile=False).requires_grad)
m = torch.nn.Linear(2, 1)
print(m.type(torch.DoubleTensor) is m, m.weight.dtype, m.bias.dtype, m.weight.requires_grad)
try:
    torch.nn.Linear(2, 1).type(torch.LongTensor)
except RuntimeError as e:
    print(e)
