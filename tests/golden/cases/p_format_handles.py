# source: original
# topic: printing
# compare: exact
# visibility: public
# f-strings and format(): a 0-d tensor formats as its number; any other tensor takes only an
# empty spec. A hook's handle prints as PyTorch's RemovableHandle.
import torch

x = torch.tensor([1.5, 2.0])
print(f"{x}")
print(f"{torch.tensor(2.5):.2f} {torch.tensor(3):>4} {torch.tensor(True):d}")
print(f"{torch.tensor(0.125, requires_grad=True):.1e}")
for value, spec in [(x, ".2f"), (x, ">20"), (torch.tensor([2.5]), ".3f"),
                    (torch.tensor(2.5), "d")]:
    try:
        print(format(value, spec))
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
h = torch.ones(1, requires_grad=True).register_hook(lambda g: g)
print(h)
print(type(h))
h.remove()
