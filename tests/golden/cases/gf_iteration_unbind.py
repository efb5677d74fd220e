# source: original
# topic: iterating over a tensor (for loops, unpacking, sum/max/sorted) gives its rows as unbind's
#   views: grad_fn=<UnbindBackward0>, and the multi-output view rule for in-place writes
# compare: exact
# visibility: public
import torch
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x * 2
rows = [r for r in y]
print(rows)
s = sum(r.sum() for r in y)
s.backward()
print(x.grad)
for r in y:
    try:
        r.mul_(2)
    except RuntimeError as e:
        print(e)
    break
z = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
for r in z:
    r += 1
print(z)
a, b = torch.tensor([5.0, 6.0], requires_grad=True) * 1
print(a, b)
print(max(torch.tensor([1.0, 3.0, 2.0], requires_grad=True)))
print(sorted(torch.tensor([3.0, 1.0]) * 1))
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
total = 0
for v in w:
    total = total + v ** 2
total.backward()
print(total, w.grad)
