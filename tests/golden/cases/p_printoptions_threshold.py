# source: original
# topic: printing
# compare: exact
# visibility: public
# threshold and edgeitems decide when and how much to summarise.
import torch
torch.set_printoptions(threshold=5)
print(torch.arange(10))
print(torch.arange(5))
print(torch.arange(6.).reshape(2, 3))
print(torch.arange(24.).reshape(4, 6))
torch.set_printoptions(edgeitems=1)
print(torch.arange(10))
print(torch.arange(24.).reshape(4, 6))
torch.set_printoptions(edgeitems=0)
print(torch.arange(10))
print(torch.arange(24.).reshape(4, 6))
torch.set_printoptions(profile="default")
torch.set_printoptions(threshold=1000000)
print(torch.arange(1001)[-5:])
print(torch.arange(1100.).reshape(11, 100)[:2, :12])
torch.set_printoptions(profile="full")
print(torch.arange(1010)[1000:])
torch.set_printoptions(profile="default")
print(torch.arange(1010))
