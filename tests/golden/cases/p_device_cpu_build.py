# source: original
# topic: printing
# compare: exact
# visibility: public
# A notebook's device preamble on a CPU-only build: every accelerator query says no, the CPU is
# the only place data can go, a CUDA device can be named but moving data there fails.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.cuda.manual_seed_all(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, repr(device), type(device), device.type, device.index)
print(torch.cuda.is_available(), torch.cuda.device_count(), torch.backends.mps.is_available())
name = (
    "cuda" if torch.cuda.is_available()
    else "mps" if torch.backends.mps.is_available()
    else "cpu"
)
print(f"Using {name} device")
acc = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {acc} device")
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU()).to(device)
print(model)
x = torch.ones(4, 2, device=device)
print(model(x).shape, x.device, x.is_cuda, x.is_cpu, x.get_device())
print(x.to("cpu", torch.float64).dtype, x.to(device=device).dtype, x.cpu().device)
print(isinstance(x.device, torch.device), str(x.device), f"{x.device}", x.device == device)
d = torch.device("cuda:0")
print(d, repr(d), d.type, d.index, torch.device("cuda", 1), repr(torch.device("cpu", 0)))
print(torch.device("cpu") == torch.device("cpu"), torch.device("cpu") == "cpu",
      torch.device("cpu") != torch.device("cuda"), torch.device(d) == d)
for f in [lambda: x.cuda(), lambda: x.to("cuda"), lambda: x.to(d), lambda: model.cuda(),
          lambda: model.to("cuda"), lambda: torch.zeros(2, device="cuda"),
          lambda: torch.tensor([1.0], device=d), lambda: torch.randn(2, device="cuda"),
          lambda: x.to("mps"), lambda: torch.device("gpu"), lambda: torch.device("cuda:x"),
          lambda: torch.device("cuda", -1), lambda: torch.cuda.current_device()]:
    try:
        f()
    except (AssertionError, RuntimeError) as e:
        print(type(e).__name__, e)
x.to(device="cuda")
