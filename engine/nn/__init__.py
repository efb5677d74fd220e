"""`torch.nn`: Module, Parameter, layers, containers, losses, `functional` and `init`.

Everything here is built on the public Tensor API and the ops in `engine.ops.nn_ops` and
`engine.ops.losses`; `import engine as torch` then `torch.nn.Linear(3, 1)` works as in
PyTorch.
"""
from __future__ import annotations

from . import functional, init, parameter, utils
from .activation import (CELU, ELU, GELU, GLU, SELU, Dropout, Dropout1d, Dropout2d, Dropout3d,
                         Flatten, Hardsigmoid, Hardswish, Hardtanh, LeakyReLU, LogSigmoid,
                         LogSoftmax, Mish, PReLU, ReLU, ReLU6,
                         SiLU, Sigmoid, Softmax, Softmin, Softplus, Softsign, Tanh, Tanhshrink,
                         Threshold, Unflatten)
from .conv import Conv1d, Conv2d
from .adaptive_pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d,
                               AdaptiveMaxPool2d)
from .container import ModuleDict, ModuleList, ParameterList, Sequential
from .distance import CosineSimilarity, PairwiseDistance
from .linear import Identity, Linear
from .loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss,
                   HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss, MSELoss,
                   NLLLoss, SmoothL1Loss, SoftMarginLoss)
from .module import Module
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from .parameter import Parameter
from .parameter_dict import ParameterDict
from .shrink import Hardshrink, RReLU, Softshrink
from .attention import MultiheadAttention
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer,
                          TransformerEncoder, TransformerEncoderLayer)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .pooling import AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d
from .sparse import Embedding, EmbeddingBag

__all__ = ["Module", "Parameter", "Linear", "Identity", "Sequential", "ModuleList", "ModuleDict",
           "ReLU", "LeakyReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Flatten", "Softplus",
           "SiLU", "ELU", "GELU", "LogSigmoid", "Hardtanh", "ReLU6", "Hardsigmoid", "Hardswish",
           "Mish", "SELU", "CELU", "Threshold", "GLU", "PReLU", "Softmin", "Softsign", "Tanhshrink",
           "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "MSELoss", "L1Loss", "SmoothL1Loss",
           "HuberLoss", "BCELoss",
           "BCEWithLogitsLoss", "NLLLoss", "CrossEntropyLoss", "Embedding", "EmbeddingBag",
           "LayerNorm",
           "BatchNorm1d", "BatchNorm2d", "Unflatten", "ParameterList", "ParameterDict",
           "CosineSimilarity",
           "PairwiseDistance", "KLDivLoss", "Conv1d", "Conv2d",
           "MaxPool2d", "AvgPool2d", "MaxPool1d", "AvgPool1d", "AdaptiveAvgPool1d",
           "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "Hardshrink", "Softshrink", "RReLU", "MarginRankingLoss", "HingeEmbeddingLoss",
           "SoftMarginLoss", "CosineEmbeddingLoss", "RNNCellBase", "RNNCell", "LSTMCell",
           "GRUCell", "RNNBase", "RNN", "LSTM", "GRU", "MultiheadAttention",
           "TransformerEncoderLayer", "TransformerEncoder", "TransformerDecoderLayer",
           "TransformerDecoder", "Transformer",
           "functional", "init", "parameter", "utils"]
