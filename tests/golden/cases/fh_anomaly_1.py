# source: original
# topic: errors
# compare: exact
# visibility: public
# Anomaly detection: set_detect_anomaly / detect_anomaly switch it (detect_anomaly warns), NaN
# from a node's backward raises naming the node and output, the version error's hint changes.
import torch
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
x = torch.tensor([0.0, 1.0], requires_grad=True)
y = torch.sqrt(x) * 0
z = (x * 0).sum()
z.backward()
print(x.grad)
try:
    (x.sqrt() * torch.tensor([0.0, 1.0])).sum().backward()
except Exception as e:
    print(type(e).__name__, e)
torch.autograd.set_detect_anomaly(False)
with torch.autograd.detect_anomaly():
    a = torch.tensor([-1.0], requires_grad=True)
    b = a.log()
    try:
        b.backward()
    except Exception as e:
        print(type(e).__name__, e)
    c = torch.tensor([0.0], requires_grad=True)
    try:
        (c / c).backward()
    except Exception as e:
        print(type(e).__name__, e)
print(torch.is_anomaly_enabled())
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
with torch.autograd.detect_anomaly():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.exp()
    c = b * 2
    b.add_(1)
    try:
        c.sum().backward()
    except Exception as e:
        print(type(e).__name__, e)
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    try:
        x.sqrt().sum().backward()
    except Exception as e:
        print(type(e).__name__, e)
    try:
        torch.autograd.grad(x.sqrt().sum(), x)
    except Exception as e:
        print(type(e).__name__, e)
with torch.autograd.detect_anomaly(check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    x.grad = None
    x.sqrt().sum().backward()
    print(x.grad)
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
