# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# The grad_fn class of every view and shape op.
import torch


def names(t):
    return [(None if f is None else type(f).__name__, i) for f, i in t.grad_fn.next_functions]


x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
for label, y in [("t", x.t()), ("T", x.T), ("transpose", x.transpose(0, 1)),
                 ("torch.transpose", torch.transpose(x, 1, 0)), ("permute", x.permute(1, 0)),
                 ("reshape", x.reshape(3, 2)), ("reshape -1", x.reshape(-1)),
                 ("torch.reshape", torch.reshape(x, (6,))), ("view", x.view(3, 2)),
                 ("view -1", x.view(-1)), ("flatten", x.flatten()),
                 ("torch.flatten", torch.flatten(x)), ("unsqueeze", x.unsqueeze(0)),
                 ("unsqueeze -1", x.unsqueeze(-1)), ("squeeze", x.unsqueeze(0).squeeze()),
                 ("squeeze 0", x.unsqueeze(0).squeeze(0)), ("expand", x[:1].expand(3, 3)),
                 ("expand -1", x.unsqueeze(0).expand(2, -1, -1))]:
    print(label, type(y.grad_fn).__name__, names(y))
    print(" ", y)
print(x.reshape(3, 2).reshape(6).grad_fn.next_functions[0][0].name())
