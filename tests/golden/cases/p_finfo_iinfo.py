# source: original
# topic: printing
# compare: exact
# visibility: public
# torch.finfo / torch.iinfo: the limits tutorials use (eps to keep a normalisation finite),
# their printed form, and the type checks.
import torch

for dt in (torch.float32, torch.float64, torch.float16):
    f = torch.finfo(dt)
    print(f)
    print(f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype)
print(torch.finfo(), torch.finfo() == torch.finfo(torch.float))
for dt in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
    i = torch.iinfo(dt)
    print(i, i.bits, i.max, i.min, i.dtype)
print(type(torch.finfo(torch.float32)), type(torch.finfo(torch.float32).eps))
x = torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0])
eps = torch.finfo(torch.float32).eps
print((x - x.mean()) / (x.std() + eps))
print(torch.tensor([1.0, 0.0]).clamp(min=torch.finfo(torch.float32).tiny).log())
for f in [lambda: torch.finfo(torch.int32), lambda: torch.iinfo(torch.float32),
          lambda: torch.iinfo(torch.bool), lambda: torch.finfo("float32")]:
    try:
        f()
    except TypeError as e:
        print(type(e).__name__, e)
