# source: original
# topic: a misspelt variable: Python 3.11 suggests a local, global or builtin name
# compare: exact
# visibility: public
import torch


def train_step(weight, learning_rate):
    loss = (weight ** 2).sum()
    loss.backward()
    with torch.no_grad():
        weight -= learning_rat * weight.grad
    return loss


w = torch.tensor([1.0, -2.0], requires_grad=True)
try:
    train_step(w, 0.1)
except NameError as e:
    print(e)
loss = (w * 3).sum()
loss.backward()
print(w.grad)
print(los.item())
