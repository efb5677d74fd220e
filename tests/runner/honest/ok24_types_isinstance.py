import torch
x = torch.tensor([1.0])
print(isinstance(x, torch.Tensor), type(x) is torch.Tensor, issubclass(bool, int))
print(type(1).__name__, type("s").__name__, type([]).__name__, type(None).__name__)
print(type(x).__name__, callable(len), len.__name__, (lambda: 0).__name__)
print(str(1.0), int("12"), float("2.5"), bool(0), list("ab"), tuple([1]), set(), frozenset([1]))
print(hex(255), bin(3), oct(8), chr(65), ord("A"), repr("q"), ascii("é"), hash(1) == hash(1))
