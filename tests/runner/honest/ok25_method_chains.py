import torch
s = "  Hello, Autograd  "
print(s.strip().lower().replace("autograd", "torch").split(", "), "-".join(["a", "b"]))
print("x".upper(), "abc".startswith("a"), "a,b".split(","), "{}".format(1), (3).bit_length())
d = {"b": 2, "a": 1}
print(sorted(d.items()), list(d.keys()), d.get("z", 0), [1, 2].index(2), (1.5).is_integer())
t = torch.arange(6.0).reshape(2, 3)
print(t.sum(dim=1), t.t().shape, t.mean().item(), t.view(-1)[:2], t.size(), t.dim())
