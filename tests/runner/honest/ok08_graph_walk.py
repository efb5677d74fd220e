import torch
w = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)
b = torch.tensor([0.1, 0.2], requires_grad=True)
x = torch.tensor([1.0, 2.0])
loss = (torch.relu(w @ x + b) - 1).pow(2).mean()


def walk(fn, depth=0):
    if fn is None:
        print("  " * depth + "None")
        return
    label = type(fn).__name__
    if hasattr(fn, "variable"):
        label += " leaf " + str(tuple(fn.variable.shape))
    print("  " * depth + label)
    for nxt, idx in fn.next_functions:
        walk(nxt, depth + 1)


walk(loss.grad_fn)
print(loss.grad_fn.name())
