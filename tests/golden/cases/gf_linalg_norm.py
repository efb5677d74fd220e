# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# torch.linalg.norm and matrix_norm: which norm each ord picks, the nodes, the gradients.
import torch

A = torch.tensor([[1., -2., 3.], [-4., 5., -6.]], requires_grad=True)
inf = float("inf")
for args in [(), ("fro",), (1,), (-1,), (inf,), (-inf,), (None, 1), (3, 0), (1, (1, 0))]:
    n = torch.linalg.norm(A, *args)
    g = n.grad_fn
    inner = g.next_functions[0][0]
    print(args, n, g.name(), g._saved_dim, inner.name())
    if inner.name() == "LinalgVectorNormBackward0":
        print("   inner", inner._saved_ord, inner._saved_dim)
    n.sum().backward()
    print(A.grad)
    A.grad = None
n = torch.linalg.norm(A, "fro")
print(n.grad_fn._saved_ord, n.grad_fn._saved_dim, torch.linalg.norm(A).grad_fn._saved_ord)
batch = torch.arange(24.).reshape(2, 3, 4) - 11
print(torch.linalg.matrix_norm(batch), torch.linalg.matrix_norm(batch, 1, keepdim=True))
print(torch.linalg.matrix_norm(batch, -inf, dim=(2, 0)), torch.linalg.norm(batch, dim=(0, 2)))
print(torch.linalg.norm(A[0], inf), torch.linalg.norm(A[0], 1), torch.linalg.norm(batch))
for call in (lambda: torch.linalg.norm(A, 3),
             lambda: torch.linalg.norm(torch.ones(2, 2, 2), 1),
             lambda: torch.linalg.norm(A, dim=(0, 1, 1)),
             lambda: torch.linalg.norm(A, "fro", dim=0),
             lambda: torch.linalg.matrix_norm(A[0]),
             lambda: torch.linalg.norm(A, 1, dim=(0, 0))):
    try:
        call()
    except RuntimeError as e:
        print(e)
