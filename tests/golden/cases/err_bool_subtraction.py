# Subtracting with bool tensors: refused before promotion, by -, torch.sub and -= alike
import torch
cases = [lambda: torch.tensor([True]) - torch.tensor([1.0]), lambda: torch.tensor([1.0]) - torch.tensor([True]),
         lambda: torch.tensor([True]) - torch.tensor([False]), lambda: torch.tensor([True]) - 1,
         lambda: 1 - torch.tensor([True]), lambda: torch.sub(torch.tensor([True]), torch.tensor([2])),
         lambda: torch.tensor([1, 2]) - torch.tensor([True, False])]
for f in cases:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
t = torch.tensor([1.0, 2.0]); 
try:
    t -= torch.tensor([True, False]); print(t)
except Exception as e: print(type(e).__name__, e)
