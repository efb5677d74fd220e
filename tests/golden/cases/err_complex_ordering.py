# source: original
# topic: errors: complex tensors refuse ordering, max, and some constructions
# compare: exact
# visibility: public
import torch

a = torch.tensor([1 + 1j, 2 - 1j])
b = torch.tensor([1 + 1j, 0j])
print(a == b, a != b)
for call in (lambda: a < b, lambda: a >= 1, lambda: a.max(), lambda: a.clamp(0, 1),
             lambda: torch.complex(torch.tensor([1, 2]), torch.tensor([3, 4])),
             lambda: torch.complex(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64)),
             lambda: torch.view_as_complex(torch.ones(3)),
             lambda: torch.view_as_real(torch.ones(3)),
             lambda: torch.tensor([1, 2], requires_grad=True),
             lambda: a.relu()):
    try:
        print(call())
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
a.sort()
