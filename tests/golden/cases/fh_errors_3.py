# source: original
# topic: errors
# compare: exact
# visibility: public
# Nested lists of uneven lengths, and view/reshape with two inferred sizes.
import torch
for data in [[[1, 2], [3]], [[1], [2, 3]], [[[1, 2], [3, 4]], [[5, 6], [7]]],
             [[1, 2], [3, 4], [5]], [[1.0, 2.0], 3.0]]:
    for dtype in [None, torch.float32]:
        try:
            print(torch.tensor(data, dtype=dtype))
        except Exception as e:
            print(type(e).__name__, e)
x = torch.arange(4.0)
for shape in [(-1, -1), (2, -1, -1), (-1, 2)]:
    for how in [x.view, x.reshape]:
        try:
            print(how(*shape))
        except Exception as e:
            print(type(e).__name__, e)
