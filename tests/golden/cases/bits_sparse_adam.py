# source: original
# topic: optim
# compare: exact
# visibility: public
# torch.optim.SparseAdam on an embedding's sparse gradients, three steps with repeated and
# absent rows, values to the last bit; its state (step an int, dense moments); maximize.
import torch
import torch.nn.functional as F

w = torch.tensor([[0.5, -1.0, 0.25], [2.0, 0.25, -0.75], [1.5, 1.0, 0.1], [-0.5, 3.0, 0.3]],
                 requires_grad=True)
opt = torch.optim.SparseAdam([w], lr=0.05, betas=(0.8, 0.95))
scale = torch.tensor([0.3, -1.7, 2.9])
for idx in ([1, 3, 1], [0, 1], [2, 2, 2, 3]):
    opt.zero_grad()
    (F.embedding(torch.tensor(idx), w, sparse=True) * scale).sum().backward()
    opt.step()
    print(w.tolist())
st = opt.state[w]
print(st["step"], st["exp_avg"].tolist(), st["exp_avg_sq"].tolist())
print(opt)
v = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
opt2 = torch.optim.SparseAdam([v], lr=0.1, maximize=True)
(F.embedding(torch.tensor([1]), v, sparse=True) * 3).sum().backward()
opt2.step()
print(v.tolist())
