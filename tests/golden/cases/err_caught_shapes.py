# source: original
# topic: errors
# compare: exact
# visibility: public
# Shape errors, caught and printed as "Type message".
import torch


def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__, e)


a = torch.ones(2, 3)
attempt("add", lambda: a + torch.ones(4))
attempt("mul", lambda: a * torch.ones(3, 2))
attempt("sub 3d", lambda: torch.ones(2, 1, 3) - torch.ones(4, 2))
attempt("mm", lambda: torch.mm(a, a))
attempt("matmul", lambda: a @ torch.ones(2))
attempt("mv", lambda: torch.mv(a, torch.ones(2)))
attempt("dot", lambda: torch.dot(torch.ones(2), torch.ones(3)))
attempt("view", lambda: a.view(4))
attempt("reshape", lambda: a.reshape(5, -1))
attempt("view non-contiguous", lambda: a.t().view(6))
attempt("cat", lambda: torch.cat([a, torch.ones(2, 2)]))
attempt("stack", lambda: torch.stack([a, torch.ones(3, 2)]))
attempt("expand", lambda: torch.ones(2).expand(3, 3))
attempt("index", lambda: a[2])
attempt("index dim", lambda: a[0, 0, 0])
attempt("transpose dim", lambda: a.transpose(0, 2))
attempt("sum dim", lambda: a.sum(2))
attempt("backward shape", lambda: (torch.ones(2, requires_grad=True) * 2).backward(torch.ones(3)))
print(torch.ones(2, 1) + torch.ones(3), (torch.ones(2, 1) * torch.ones(1, 3)).shape)
