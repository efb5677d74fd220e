# source: original
# topic: saved-tensors
# compare: exact
# visibility: public
# A grad_fn keeps a dim argument as the learner wrote it, and PyTorch reads saved integers
# back as unsigned 64-bit numbers: dim=-1 prints 18446744073709551615. Lists of dims keep the
# order given (sum(dim=(-1, 0)) is not sorted). Negative indices, starts, offsets and shifts
# print the same way; the gradients still go to the right dims.
import torch

x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()


def show(label, y):
    print(label, type(y.grad_fn).__name__, y.grad_fn._saved_dim)


show("cumsum", torch.cumsum(x, dim=-2))
show("cumprod", torch.cumprod(x, -1))
show("cumprod0", torch.cumprod(x, 0))
show("sum", x.sum(-1))
show("sum tuple", x.sum(dim=(-1,)))
show("sum list", x.sum(dim=[-1, 0]))
y = x.sum(dim=(2, 0), keepdim=True)
print("sum order", type(y.grad_fn).__name__, y.grad_fn._saved_dim, y.grad_fn._saved_keepdim)
show("mean", x.mean((-1, -3)))
show("softmax", torch.softmax(x, -1))
show("F.softmax", torch.nn.functional.softmax(x, dim=-1))
show("log_softmax", x.log_softmax(dim=-2))
show("cat", torch.cat([x, x], -1))
show("stack", torch.stack([x, x], -1))
show("stack -4", torch.stack([x, x], -4))
y = x.select(-1, 1)
print("select", type(y.grad_fn).__name__, y.grad_fn._saved_dim, y.grad_fn._saved_index)
y = x.select(1, -1)
print("select index", type(y.grad_fn).__name__, y.grad_fn._saved_dim, y.grad_fn._saved_index)
y = x[:, -1]
print("x[:, -1]", type(y.grad_fn).__name__, y.grad_fn._saved_dim, y.grad_fn._saved_index)
fn = x[..., -3:-1].grad_fn
print("x[..., -3:-1]", type(fn).__name__, fn._saved_dim, fn._saved_start, fn._saved_end,
      fn._saved_step)
fn = x.narrow(-1, -2, 1).grad_fn
print("narrow", type(fn).__name__, fn._saved_dim, fn._saved_start, fn._saved_end)
show("sort", x.sort(-1)[0])
show("topk", x.topk(2, -1)[0])
show("max", x.max(-1)[0])
show("min", x.min(dim=-2).values)
show("squeeze", x[:, :1].squeeze(-2))
show("unsqueeze", x.unsqueeze(-1))
y = x.transpose(-1, -2)
print("transpose", type(y.grad_fn).__name__, y.grad_fn._saved_dim0, y.grad_fn._saved_dim1)
y = x.permute(-1, 0, 1)
print("permute", type(y.grad_fn).__name__, y.grad_fn._saved_dims)
y = x.movedim(-1, 0)
print("movedim", type(y.grad_fn).__name__, y.grad_fn._saved_dims)
show("gather", x.gather(-1, torch.zeros(2, 3, 1, dtype=torch.long)))
show("index_select", x.index_select(-1, torch.tensor([0, 2])))
show("var", x.var(-1))
show("std", x.std((-1, 0)))
show("var_mean", torch.var_mean(x, -1)[0])
show("norm", x.norm(dim=-1))
show("vector_norm", torch.linalg.vector_norm(x, dim=(-1,)))
show("amax", x.amax((-1, 0)))
show("amin", x.amin(-1))
show("logsumexp", x.logsumexp(-1))
y = x.flip((-1, 0))
print("flip", type(y.grad_fn).__name__, y.grad_fn._saved_dims)
y = x.roll((1, -2), (-1, 0))
print("roll", type(y.grad_fn).__name__, y.grad_fn._saved_dims, y.grad_fn._saved_shifts)
show("prod", x.prod(-1))
show("unbind", x.unbind(-1)[0])
y = x.split(2, -1)[0]
print("split", type(y.grad_fn).__name__, y.grad_fn._saved_dim, y.grad_fn._saved_split_size)
show("chunk", x.chunk(2, -1)[0])
fn = x.diagonal(0, -1, -2).grad_fn
print("diagonal", type(fn).__name__, fn._saved_dim1, fn._saved_dim2, fn._saved_offset)
fn = x.diagonal(-1, 0, 1).grad_fn
print("diagonal offset", type(fn).__name__, fn._saved_dim1, fn._saved_dim2, fn._saved_offset)
print("tril", type(x.tril(-1).grad_fn).__name__, x.tril(-1).grad_fn._saved_diagonal)
show("cross", torch.linalg.cross(x[:, :, :3], x[:, :, 1:], dim=-1))
show("glu", torch.nn.functional.glu(x, -1))
show("cosine_similarity", torch.nn.functional.cosine_similarity(x, x + 1, dim=-1))
show("sum ()", x.sum(()))

# the backward still works on the dims the numbers stand for
y = (x.softmax(-1) * x.cumsum(-2)).sum((-1, 0)).sum()
(y + x.transpose(-1, -2).amax((-1, -2)).sum()).backward()
print(x.grad)
print(torch.cumsum(torch.tensor(2.0, requires_grad=True), -1).grad_fn._saved_dim)
