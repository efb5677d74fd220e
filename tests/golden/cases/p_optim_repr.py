# source: original
# topic: printing
# compare: exact
# visibility: public
# Optimizers print their parameter groups; containers and layers print as PyTorch's.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 3), nn.LeakyReLU(0.2), nn.Linear(3, 1))
print(torch.optim.SGD(model.parameters(), lr=0.1))
print(torch.optim.Adam(model.parameters()))
print(torch.optim.AdamW(model.parameters(), lr=0.01))
print(torch.optim.RMSprop(model.parameters()))
opt = torch.optim.SGD([{"params": model[0].parameters()},
                       {"params": model[2].parameters(), "lr": 1}], lr=0.1, momentum=0.5)
print(opt)
print(nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU(),
                     nn.Linear(1, 1)]))
print(nn.Sequential(nn.Flatten(), nn.Identity(), nn.Softmax(dim=1), nn.LogSoftmax(dim=-1)))
print(nn.ReLU(inplace=True), nn.Softmax(), nn.BCELoss(), nn.NLLLoss(), nn.L1Loss())
print(model[0:2])
print(model.state_dict().keys())
print(model.load_state_dict(model.state_dict()))
print(model.load_state_dict({"0.weight": torch.zeros(3, 2)}, strict=False))
print(model.training, model.eval().training, model[0].training)
print([n for n, _ in model.named_modules()])
