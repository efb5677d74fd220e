# source: original
# topic: errors
# compare: exact
# visibility: public
# histc / logspace misuse, caught and printed as "Type message".
import torch


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.tensor([1., 2., 3.])
attempt("histc of ints", lambda: torch.histc(torch.tensor([1, 2, 3]), bins=3))
attempt("no bins", lambda: torch.histc(x, bins=0))
attempt("min above max", lambda: torch.histc(x, bins=3, min=3, max=1))
attempt("nan range", lambda: torch.histc(torch.tensor([1., float("nan")]), bins=3))
attempt("inf range", lambda: torch.histc(torch.tensor([1., float("inf")]), bins=3))
attempt("histc backward", lambda: torch.histc(x.requires_grad_(), 3).sum().backward())
attempt("negative steps", lambda: torch.logspace(0, 1, -1))
attempt("int requires grad", lambda: torch.logspace(0, 1, 2, dtype=torch.long,
                                                    requires_grad=True))
