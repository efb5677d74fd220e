# expect: refused,exception
# goal: a ParameterDict key is an attribute name: __reduce_ex__ hands out the real object class and copyreg
import torch.nn as nn

pd = nn.ParameterDict()
parts = pd["__reduce" + "_ex__"](2)
print("PWNED", parts[0], parts[1])
