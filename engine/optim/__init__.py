"""`torch.optim`: Optimizer, SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam,
SparseAdam and `lr_scheduler`.

Optimisers keep PyTorch's `param_groups` and `state`, update parameters in place under
`no_grad`, and report each step to the engine's listener.
"""
from __future__ import annotations

from . import lr_scheduler
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .nadam import NAdam
from .radam import RAdam
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD
from .sparse_adam import SparseAdam

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax",
           "NAdam", "RAdam", "SparseAdam", "lr_scheduler"]
