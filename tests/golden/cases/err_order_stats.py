# source: original
# topic: errors
# compare: exact
# visibility: public
# kthvalue / median / mode misuse, caught and printed as "Type message".
import torch


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.tensor([[3., 1., 2.], [5., 4., 0.]])
attempt("k too big", lambda: torch.kthvalue(x, 4))
attempt("k zero", lambda: x.kthvalue(0))
attempt("k on dim 0", lambda: torch.kthvalue(x, 3, 0))
attempt("dim", lambda: torch.kthvalue(x, 1, 2))
attempt("median dim", lambda: x.median(-3))
attempt("mode dim", lambda: torch.mode(x, 2))
attempt("median empty dim", lambda: torch.median(torch.zeros(0, 3), 0))
attempt("median bool", lambda: torch.median(torch.tensor([True, False])))
attempt("median of nothing", lambda: torch.median(torch.tensor([])))
