# source: original
# topic: training
# compare: numeric
# visibility: public
# A 2-4-1 network learns XOR with SGD (momentum), Adam and RMSprop from fixed weights.
import torch
import torch.nn as nn
import torch.nn.functional as F
model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[0.5, -0.4], [0.3, 0.8], [-0.7, 0.2], [0.1, -0.9]]))
    model[0].bias.copy_(torch.tensor([0.1, -0.1, 0.2, 0.0]))
    model[2].weight.copy_(torch.tensor([[0.6, -0.5, 0.4, 0.3]]))
    model[2].bias.fill_(0.05)
x = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
y = torch.tensor([[0.], [1.], [1.], [0.]])
# a table, not getattr(torch.optim, name): gradstep refuses computed attribute names
OPTIMIZERS = {"SGD": torch.optim.SGD, "Adam": torch.optim.Adam, "AdamW": torch.optim.AdamW,
              "RMSprop": torch.optim.RMSprop}
for name in ["SGD", "Adam", "RMSprop"]:
    m = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
    m.load_state_dict(model.state_dict())
    extra = {"momentum": 0.9} if name == "SGD" else {}
    opt = OPTIMIZERS[name](m.parameters(), lr=0.05, **extra)
    for epoch in range(300):
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(m(x), y)
        loss.backward()
        opt.step()
        if epoch % 100 == 99:
            print(name, epoch, f"{loss.item():.6f}")
    print(torch.sigmoid(m(x)))
