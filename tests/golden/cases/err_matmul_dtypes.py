# source: original
# topic: errors
# compare: exact
# visibility: public
# Matrix products refuse to mix dtypes, each in its own words (a learner's integer tensor fed
# to a float layer is the usual way to meet them); torch.addmm with beta and alpha. The last
# one, nn.Linear on an integer batch, is left uncaught.
import torch

L = torch.tensor([[1, 2], [3, 4]])
F = torch.ones(2, 2)
D = torch.ones(2, 2, dtype=torch.float64)
l1 = torch.tensor([1, 2])
f1 = torch.ones(2)
cases = [("L @ F", lambda: L @ F), ("F @ D", lambda: F @ D), ("mm", lambda: torch.mm(F, L)),
         ("mv", lambda: torch.mv(F, l1)), ("matrix @ vector", lambda: L @ f1),
         ("dot", lambda: torch.dot(f1, l1)), ("vector @ matrix", lambda: l1 @ F),
         ("bmm", lambda: torch.bmm(L[None], F[None])),
         ("batched @", lambda: torch.ones(3, 2, 2) @ L),
         ("shapes before dtypes", lambda: torch.ones(2, 3, dtype=torch.long) @ F),
         ("addmm mat1", lambda: torch.addmm(F, L, F)),
         ("addmm self", lambda: torch.addmm(l1, F, F)),
         ("linear", lambda: torch.nn.functional.linear(L, F, f1)),
         ("bool @", lambda: torch.ones(2, 2, dtype=torch.bool) @ F)]
for name, f in cases:
    try:
        f()
    except RuntimeError as e:
        print(f"{name}: {e}")
print(L @ L)
b = torch.zeros(2, requires_grad=True)
y = torch.addmm(b, torch.ones(1, 3), torch.ones(3, 2), beta=0.5, alpha=2.0)
print(y)
layer = torch.nn.Linear(2, 1)
print(layer(L))
