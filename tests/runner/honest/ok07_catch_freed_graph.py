import torch
x = torch.tensor([2.0], requires_grad=True)
y = x * x
z = y * 3
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__, "caught", len(e.args))
print(x.grad)
try:
    int("nope")
except:
    print("bare except works")
finally:
    print("finally runs")
