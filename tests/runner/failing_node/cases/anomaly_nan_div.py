import torch
a = torch.tensor([0.0, 1.0], requires_grad=True)
b = torch.tensor([0.0, 2.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    q = a / b
    loss = q.sum()
    loss.backward()
