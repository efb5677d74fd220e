# source: original
# topic: training
# compare: exact
# visibility: public
# torch.save / torch.load checkpoints: load gives an independent copy (later changes to the
# model do not reach it), load_state_dict reports the key match, a missing file is
# FileNotFoundError, and weights_only (the default) refuses a whole module, naming its class.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)

    def forward(self, x):
        return self.fc(x)


model = Net()
with torch.no_grad():
    model.fc.weight.copy_(torch.tensor([[0.5, -0.25]]))
    model.fc.bias.fill_(0.125)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss = model(torch.tensor([[1.0, 2.0]])).sum()
loss.backward()
opt.step()
torch.save(model.state_dict(), "model.pt")
torch.save({"epoch": 3, "model": model.state_dict(), "optimizer": opt.state_dict(),
            "loss": loss, "history": [1.5, 0.75]}, "ckpt.pth")
with torch.no_grad():
    model.fc.weight.zero_()
sd = torch.load("model.pt")
print(sd)
restored = Net()
print(restored.load_state_dict(sd))
print(restored(torch.tensor([[1.0, 2.0]])))
ckpt = torch.load("ckpt.pth", map_location="cpu")
print(ckpt["epoch"], ckpt["loss"], ckpt["history"])
print(ckpt["optimizer"]["param_groups"])
opt2 = torch.optim.SGD(restored.parameters(), lr=0.1, momentum=0.9)
opt2.load_state_dict(ckpt["optimizer"])
print(opt2.state_dict()["state"][0]["momentum_buffer"])
t = torch.tensor([1.0, 2.0], requires_grad=True)
torch.save(t * 2, "t.pt")
u = torch.load("t.pt")
print(u, u.is_leaf)
torch.save(nn.Sequential(nn.Linear(1, 1), nn.ReLU()), "seq.pt")
print(torch.load("seq.pt", weights_only=False))
for name in ["seq.pt", "missing.pt"]:
    try:
        torch.load(name)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[-3] if name == "seq.pt" else e)
torch.save(model, "net.pt")
try:
    torch.load("net.pt")
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[-3])
