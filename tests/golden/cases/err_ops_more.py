# source: original
# topic: errors
# compare: exact
# visibility: public
# Messages of tril/triu, diag, diagonal, trace, roll, movedim, cross, einsum, addcdiv, lerp,
# logaddexp, amax, dist, std_mean, outer and hstack/vstack, caught and printed as "Type message".
import torch


def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
A = torch.ones(3, 3)
attempt("tril 1-D", lambda: x.tril())
attempt("triu 0-D", lambda: torch.triu(torch.tensor(1.0)))
attempt("diag 3-D", lambda: torch.diag(torch.ones(2, 2, 2)))
attempt("diagonal same dims", lambda: A.diagonal(0, 1, 1))
attempt("trace 1-D", lambda: x.trace())
attempt("roll mismatch", lambda: x.roll((1, 2), (0,)))
attempt("movedim counts", lambda: A.movedim((0, 1), (0,)))
attempt("movedim repeated", lambda: A.movedim((0, 0), (0, 1)))
attempt("cross length", lambda: torch.cross(torch.ones(2, 2), torch.ones(2, 2), dim=1))
attempt("linalg.cross", lambda: torch.linalg.cross(torch.ones(3), torch.ones(4)))
attempt("einsum dims", lambda: torch.einsum("ij,jk->ik", A, x))
attempt("einsum operands", lambda: torch.einsum("ij,jk->ik", A))
attempt("einsum too many", lambda: torch.einsum("ij->ij", A, A))
attempt("einsum output", lambda: torch.einsum("ij->k", A))
attempt("addcdiv ints",
        lambda: torch.addcdiv(torch.tensor([1]), torch.tensor([1]), torch.tensor([2])))
attempt("addcmul shapes", lambda: torch.addcmul(x, torch.ones(2), x))
attempt("lerp ints", lambda: torch.lerp(torch.tensor([1]), torch.tensor([2]), 0.5))
attempt("logaddexp ints", lambda: torch.logaddexp(torch.tensor([1]), torch.tensor([2])))
attempt("amax dim", lambda: A.amax(2))
attempt("amax empty", lambda: torch.ones(0).amax())
attempt("cumprod dim", lambda: x.cumprod(1))
attempt("dist ints", lambda: torch.dist(torch.tensor([1]), torch.tensor([2])))
attempt("std_mean ints", lambda: torch.std_mean(torch.tensor([1, 2])))
attempt("outer 2-D", lambda: torch.outer(A, x))
attempt("hstack empty", lambda: torch.hstack([]))
attempt("vstack sizes", lambda: torch.vstack([x, torch.ones(2)]))
print(torch.cross(torch.eye(3), torch.ones(3, 3)))      # warns: no dim given
