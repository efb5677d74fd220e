# source: original
# topic: activations in place: leaky_relu (LeakyReluBackward1, saving the result), hardtanh and
#   relu6 (HardtanhBackward0, saving a clone of the input), F.relu_ / torch.relu_, and
#   nn.LeakyReLU(0.2, inplace=True) in a model
# compare: exact
# visibility: public
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([-1.0, 0.5, 7.0], requires_grad=True)
for name, f in [("leaky_relu inplace", lambda t: F.leaky_relu(t, 0.2, inplace=True)),
                ("leaky_relu_", lambda t: F.leaky_relu_(t, 0.2)),
                ("LeakyReLU(0.2, True)", lambda t: nn.LeakyReLU(0.2, True)(t)),
                ("hardtanh inplace", lambda t: F.hardtanh(t, inplace=True)),
                ("hardtanh_", lambda t: F.hardtanh_(t, -0.5, 0.5)),
                ("relu6 inplace", lambda t: F.relu6(t, inplace=True)),
                ("ReLU6(True)", lambda t: nn.ReLU6(inplace=True)(t)),
                ("Hardtanh(True)", lambda t: nn.Hardtanh(inplace=True)(t)),
                ("relu_", lambda t: F.relu_(t)),
                ("torch.relu_", lambda t: torch.relu_(t))]:
    x.grad = None
    h = x * 1
    y = f(h)
    print(name, y is h, y, h._version)
    y.sum().backward()
    print("  grad", x.grad)
y = F.leaky_relu(x * 1, 0.1, inplace=True)
print(y.grad_fn._saved_result, y.grad_fn._saved_negative_slope)
z = F.hardtanh(x * 2, -1.0, 1.0, inplace=True)
print(z.grad_fn._saved_self, z.grad_fn._saved_min_val, z.grad_fn._saved_max_val)
for f in [lambda: F.leaky_relu(x, inplace=True), lambda: F.hardtanh_(x), lambda: F.relu_(x)]:
    try:
        f()
    except RuntimeError as e:
        print(e)
model = nn.Sequential(nn.Linear(2, 3), nn.LeakyReLU(0.2, inplace=True), nn.Linear(3, 1))
print(model)
with torch.no_grad():
    for p in model.parameters():
        p.fill_(0.5)
out = model(torch.tensor([[1.0, -3.0]]))
out.backward()
print(out, model[0].weight.grad)
