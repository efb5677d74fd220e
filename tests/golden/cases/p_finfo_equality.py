# source: original
# topic: torch.finfo / torch.iinfo compare by class and dtype and cannot be hashed
# compare: exact
# visibility: public
import torch

print(torch.finfo() == torch.finfo(torch.float32), torch.finfo() == torch.finfo(torch.float64))
print(torch.finfo(torch.float32) == torch.iinfo(torch.int32), torch.finfo() == "float32")
print(torch.iinfo(torch.int8) == torch.iinfo(torch.int8))
print(torch.iinfo(torch.int8) != torch.iinfo(torch.uint8))
for info in (torch.finfo(torch.float16), torch.iinfo(torch.int64)):
    try:
        print(hash(info))
    except TypeError as e:
        print(e)
limits = {torch.finfo(torch.float32): "single"}
