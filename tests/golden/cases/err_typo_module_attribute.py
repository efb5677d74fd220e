# source: original
# topic: misspelt attributes of an nn.Module and an optimizer: Python 3.11's suggestion
# compare: exact
# visibility: public
import torch
import torch.nn as nn

model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
tries = [lambda: model.weigth, lambda: model.paramters(), lambda: opt.zero_grads(),
         lambda: opt.setp()]
for f in tries:
    try:
        f()
    except AttributeError as e:
        print(e)
opt.zero_grads()
