# expect: refused
# goal: __init_subclass__ hooks
import torch
class A(torch.nn.Module):
    def __init_subclass__(cls):
        print('PWNED')
