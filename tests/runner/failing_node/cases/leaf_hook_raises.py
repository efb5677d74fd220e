import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.5, 0.5], requires_grad=True)
out = (w * 3 + b).sum()

def stop(grad):
    raise RuntimeError("no gradient for w, please")

w.register_hook(stop)
out.backward()
