# source: original
# topic: errors
# compare: exact
# visibility: public
# Determinant mistakes: a vector, a non-square matrix, an integer matrix.
import torch
for call in (lambda: torch.det(torch.ones(3)),
             lambda: torch.linalg.det(torch.ones(2, 3)),
             lambda: torch.ones(2, 4, 3).det()):
    try:
        call()
    except RuntimeError as e:
        print(e)
torch.det(torch.tensor([[1, 2], [3, 4]]))
