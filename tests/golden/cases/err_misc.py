# source: original
# topic: errors
# compare: exact
# visibility: public
# More messages learners meet, caught and printed as "Type message".
import torch


def attempt(label, fn):
    try:
        fn()
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.tensor([1.0, 2.0], requires_grad=True)
attempt("zero_ on None grad", lambda: x.grad.zero_())
attempt("backward gradient dtype", lambda: (x * 2).backward(torch.tensor([1, 1])))
attempt("mean of ints", lambda: torch.tensor([1, 2]).mean())
attempt("requires_grad int arange", lambda: torch.arange(3, requires_grad=True))
attempt("iterate 0-d", lambda: list(torch.tensor(1.0)))
attempt("len 0-d", lambda: len(torch.tensor(1.0)))
attempt("bool of many", lambda: bool(torch.tensor([1.0, 2.0])))
attempt("squeeze dim", lambda: torch.ones(2, 3).squeeze(3))
attempt("permute dims", lambda: torch.ones(2, 3).permute(0))
attempt("softmax dim", lambda: torch.softmax(torch.ones(2), dim=1))
attempt("Linear shape", lambda: torch.nn.Linear(3, 2)(torch.ones(2, 4)))
attempt("mse shape", lambda: torch.nn.functional.mse_loss(torch.ones(2), torch.ones(3)))
