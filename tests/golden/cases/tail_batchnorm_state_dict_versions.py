# source: original
# topic: loading a BatchNorm state_dict without num_batches_tracked: a dict of PyTorch's own
#   making (it records module versions) reports the key missing, a hand-built dict does not
# compare: exact
# visibility: public
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
model.train()
model(torch.tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]]))
sd = model.state_dict()
print(sd["1.num_batches_tracked"])

fresh = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
plain = {k: v for k, v in sd.items() if k != "1.num_batches_tracked"}
print(fresh.load_state_dict(plain))
print(fresh[1].num_batches_tracked, sorted(plain))

print(fresh.load_state_dict({"0.weight": torch.zeros(3, 2)}, strict=False))

del sd["1.num_batches_tracked"]
print(fresh.load_state_dict(sd, strict=False))
torch.save(sd, "bn.pt")
loaded = torch.load("bn.pt")
try:
    fresh.load_state_dict(loaded)
except RuntimeError as e:
    print(e)
bn = nn.BatchNorm1d(3, track_running_stats=False)
print(bn.load_state_dict({"weight": torch.ones(3), "bias": torch.zeros(3)}))
