# expect: refused,exception
# goal: a numpy class that an engine object or class keeps as an attribute
import torch
import numpy as np
for owner in (torch.Tensor, torch.ones(1), torch.float32, torch.nn.Linear(1, 1)):
    for name in ("ndarray", "array_type", "numpy_type", "type", "dtype", "data_class"):
        cls = getattr(owner, name, None)
        if callable(cls):
            try:
                print(cls((4,), np.uint8, buffer=b"gradstep", offset=-32), 'PWNED')
            except (TypeError, ValueError, AttributeError):
                pass
raise ValueError("no raw constructor reached")
