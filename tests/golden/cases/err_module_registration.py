# source: original
# topic: registering parameters, buffers and submodules under names already taken by
#   another kind ("attribute 'lin' already exists"), re-registering one's own kind, and the
#   TypeError for assigning a module where a parameter or buffer is, which names the class by
#   its full PyTorch path (torch.typename)
# compare: exact
# visibility: public
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer("steps", torch.zeros(1))
        self.scale = nn.Parameter(torch.ones(1))


class Mine(nn.Module):
    pass


net = Net()
attempts = [("buffer over module", lambda: net.register_buffer("lin", torch.ones(1))),
            ("parameter over buffer",
             lambda: net.register_parameter("steps", nn.Parameter(torch.ones(1)))),
            ("module over parameter", lambda: net.add_module("scale", nn.ReLU())),
            ("buffer over method", lambda: net.register_buffer("forward", None)),
            ("parameter over attribute", lambda: net.register_parameter("training", None)),
            ("buffer again", lambda: net.register_buffer("steps", torch.ones(1))),
            ("parameter again", lambda: net.register_parameter("scale", None)),
            ("module again", lambda: net.add_module("lin", nn.Tanh()))]
for label, attempt in attempts:
    try:
        attempt()
        print(label, "ok")
    except KeyError as e:
        print(label, "KeyError", e)
print(net, list(net.named_buffers()), [n for n, _ in net.named_parameters()])

for value in [nn.Linear(1, 1), Mine(), nn.Dropout2d(), nn.EmbeddingBag(2, 2), 3, [1.0]]:
    m = nn.Module()
    m.p = nn.Parameter(torch.ones(1))
    m.register_buffer("b", torch.ones(1))
    for name in ("p", "b"):
        try:
            setattr(m, name, value)
        except TypeError as e:
            print(e)
print(type(nn.Dropout1d()), nn.Dropout3d)
net.lin = torch.ones(2)
