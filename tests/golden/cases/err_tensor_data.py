# source: original
# topic: torch.tensor refusing data it cannot hold (strings, None, uneven or nested lists), and
#   .grad assigned something that is not a tensor
# compare: exact
# visibility: public
import torch

for data in ["abc", ["a", "b"], [1, "a"], [[1.0], ["a"]], [""], b"ab",
             [None], None, [1, None], {1: 2}, {1, 2},
             [[1, 2], 3], [1, [2, 3]], [1.0, [2.0, 3.0]], [True, [True]], [1, (2,)],
             [[1.0, 2.0], [3.0]]]:
    try:
        print(torch.tensor(data))
    except Exception as e:
        print(type(e).__name__, e)
try:
    torch.tensor(["1.5"], dtype=torch.float32)
except Exception as e:
    print(type(e).__name__, e)

x = torch.tensor([1.0, 2.0], requires_grad=True)
for value in [[1.0, 2.0], 3.0, (1.0, 2.0)]:
    try:
        x.grad = value
    except TypeError as e:
        print(e)
x.grad = torch.tensor([0.5, 0.5])
print(x.grad)
