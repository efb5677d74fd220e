"""PyTorch's user-facing error and warning texts, verbatim (the spec is PyTorch 2.13's output).

Kept in one module so tests and every raising site agree on the words.
"""
from __future__ import annotations

BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")
IMPLICIT_SCALAR = "grad can be implicitly created only for scalar outputs"
IMPLICIT_REAL = "grad can be implicitly created only for real scalar outputs but got {}"
NO_GRAD_FN = "element {} of tensors does not require grad and does not have a grad_fn"
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
INTERNAL_OVERLAP = ("unsupported operation: more than one element of the written-to tensor "
                    "refers to a single memory location. Please clone() the tensor before "
                    "performing the operation.")
INFERENCE_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You "
                     "can make a clone to get a normal tensor before doing inplace update.See "
                     "https://github.com/pytorch/rfcs/pull/17 for more details.")
INFERENCE_SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors "
                   "created in inference mode in computation tracked by autograd. To work around "
                   "this, you can make a clone to get a normal tensor and use it in autograd, or "
                   "use `torch.no_grad()` instead of `torch.inference_mode()`.")
INFERENCE_REQUIRES_GRAD = ("Setting requires_grad=True on inference tensor outside InferenceMode "
                           "is not allowed.")
MULTI_VIEW_INPLACE = (
    "Output {} of {} is a view and is being modified inplace. This view is the output of a "
    "function that returns multiple views. Such functions do not allow the output views to be "
    "modified inplace. You should replace the inplace operation by an out-of-place one.")
VMAP_INPLACE = ("vmap: inplace arithmetic(self, *extra_args) is not possible because there "
                "exists a Tensor `other` in extra_args that has more elements than `self`. This "
                "happened due to `other` being vmapped over but `self` not being vmapped over in "
                "a vmap. Please try to use out-of-place operators instead of inplace arithmetic. "
                "If said operator is being called inside the PyTorch framework, please file a "
                "bug report instead.")
VMAP_RANDOM = ("vmap: called random operation while in randomness error mode. Please either "
               "use the 'same' or 'different' randomness flags on vmap or perform the "
               "randomness operation out of vmap")
VMAP_ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
             "calling .item() on a Tensor, please try to rewrite what you're doing with other "
             "operations. If error is occurring somewhere inside PyTorch internals, please file "
             "a bug report.")
VMAP_CONTROL_FLOW = ("vmap: It looks like you're attempting to use a Tensor in some "
                     "data-dependent control flow. We don't support that yet, please file an "
                     "issue at https://github.com/pytorch/pytorch/issues .")
NO_GRAD_VIEW_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace to "
    "be tracked).")
VIEW_LEAF_INPLACE = ("a view of a leaf Variable that requires grad is being used in an in-place "
                     "operation.")
# PyTorch words this three ways depending on the entry point
INT_REQUIRES_GRAD = "Only Tensors of floating point and complex dtype can require gradients"
INT_REQUIRES_GRAD_SET = "only Tensors of floating point and complex dtype can require gradients"
INT_REQUIRES_GRAD_METHOD = "only Tensors of floating point dtype can require gradients"
NUMPY_REQUIRES_GRAD = ("Can't call numpy() on Tensor that requires grad. Use "
                       "tensor.detach().numpy() instead.")
NONLEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use "
    "var_no_grad = var.detach().")
NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information.")
CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak.")
SCALAR_CONVERSION_WARNING = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first.")
UNUSED_INPUT = ("The differentiated Tensor at index {} appears to not have been used in the "
                "graph. Set allow_unused=True if this is the desired behavior.")
NOT_REQUIRING_GRAD_INPUT = "One of the differentiated Tensors does not require grad"
RETAIN_GRAD_LEAF = "can't retain_grad on Tensor that has requires_grad=False"
DETACH_VIEW_INPLACE = (
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
    "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
    "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution.")
BATCHED_GRAD_SHAPE = (
    "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the "
    "batch dimension. The sizes of the remaining dimensions are expected to match the shape of "
    "corresponding output, but a mismatch was detected: grad_output[{}] has a shape of {} and "
    "output[{}] has a shape of {}. If you only want some tensors in `grad_output` to be "
    "considered batched, consider using vmap.")
HOOK_NO_GRAD = "cannot register a hook on a tensor that doesn't require gradient"
# what a gradient hook may return (PyTorch's check_single_result / check_variable_result)
HOOK_NOT_TENSOR = "expected Variable, but hook returned '{}'"
HOOK_CHANGED_TYPE = "hook '{}' has changed the type of value (was {} got {})"
HOOK_CHANGED_SIZE = "hook '{}' has changed the size of value"
HOOK_NONE_REPLACED = "can't replace a None gradient with a non-None value"
HOOK_COUNT = "hook '{}' has returned an incorrect number of values (got {}, but expected {})"
POST_ACCUMULATE_HOOK_NONLEAF = ("post accumulate grad hooks cannot be registered on non-leaf "
                                "tensors")
POST_ACCUMULATE_HOOK_RETURN = "Tensor post accumulate grad hooks should return None."
DEEPCOPY_NONLEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
    "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")
ONE_ELEMENT = "only one element tensors can be converted to Python scalars"
VIEW_STRIDES = ("view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
FUNCTION_INSTANTIATED = (
    "{} should not be instantiated. Methods on autograd functions are all static, so you "
    "should invoke them on the class itself. Instantiating an autograd function will raise an "
    "error in a future version of PyTorch.")
LEGACY_FUNCTION_CALL = (
    "Legacy autograd function with non-static forward method is deprecated. Please use "
    "new-style autograd function with static forward method. (Example: "
    "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")
HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")


ANOMALY_HINT = ("Hint: the backtrace further above shows the operation that failed to compute "
                "its gradient. The variable in question was changed in there or anywhere later. "
                "Good luck!")

COPY_CONSTRUCT = ("To copy construct from a tensor, it is recommended to use "
                  "sourceTensor.detach().clone() or sourceTensor.detach().clone()"
                  ".requires_grad_(True), rather than torch.tensor(sourceTensor).")
T_NOT_2D = ("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
            "reverse the dimensions of a tensor.")
T_ZERO_D = "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."

# forward mode (torch.autograd.forward_ad)
FWAD_NESTED = "Nested forward mode AD is not supported at the moment"
FWAD_NO_LEVEL = ("Trying to create a dual Tensor for forward AD but no level exists, make sure "
                 "to enter_dual_level() first.")
FWAD_NOT_LAST = ("Trying to exit a forward AD level that was not the last one that was "
                 "created. This is not supported.")
FWAD_NEGATIVE = "Dual level must be a positive number."
FWAD_INVALID_LEVEL = "Invalid level given to _make_dual"
FWAD_NOT_FLOAT = "Expected {} to be floating point or complex, but got: {}"
FWAD_DUAL_PRIMAL = ("Making a dual Tensor based on a Tensor that already has a forward gradient "
                    "at the same level {} is not supported.")
# (PyTorch's text runs "level" and the number together)
FWAD_DUAL_TANGENT = ("Setting a forward grad that itself has a forward gradient at the same "
                     "level{} is not supported.")
FWAD_SIZE = ("Trying to set a forward gradient that has a different size than that of the "
             "original Tensor, this is not supported. Tensor is of size {} while the given "
             "forward gradient is of size {}.")
FWAD_UNSUPPORTED = "Trying to use forward AD with aten::{} that does not support it."


def _hint() -> str:
    from .autograd.anomaly import state
    return ANOMALY_HINT if state.enabled else HINT


def legacy_type(t) -> str:
    """``torch.FloatTensor [3]``-style description used in version-counter errors."""
    return f"torch.{t.dtype.legacy} [{', '.join(str(s) for s in t._data.shape)}]"


def modified_inplace(t, expected: int, own_node=None) -> str:
    """The version-counter error for saved tensor `t` (saved at version `expected`)."""
    fn = own_node if own_node is not None else t.grad_fn
    which = ""
    if fn is not None:
        name = type(fn).__name__
        cut = name.rfind("Backward")
        if cut > 0:     # PyTorch drops "Backward" and an overload number 0: Elu1, but Mul
            suffix = name[cut + 8:]
            name = name[:cut] + ("" if suffix == "0" else suffix)
        if name == "CopySlices":    # PyTorch names this node by its C++ class
            name = "torch::autograd::CopySlices"
        which = f", which is output {t._out_nr} of {name},"
    return ("one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [{legacy_type(t)}]{which} is at version {t._vc[0]}; expected "
            f"version {expected} instead. {_hint()}")


BOOL_NEGATION = ("Negation, the `-` operator, on a bool tensor is not supported. If you are "
                 "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def bool_subtraction(both: bool) -> str:
    """PyTorch's refusal to subtract with bool tensors (one, or both operands)."""
    if both:
        return ("Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                "the `^` or `logical_xor()` operator instead.")
    return ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def size_mismatch(a_shape: tuple, b_shape: tuple) -> str | None:
    """PyTorch's broadcast error for two shapes, or None when they broadcast."""
    for i in range(1, min(len(a_shape), len(b_shape)) + 1):
        x, y = a_shape[-i], b_shape[-i]
        if x != y and x != 1 and y != 1:
            dim = max(len(a_shape), len(b_shape)) - i
            return (f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                    f"non-singleton dimension {dim}")
    return None


def _engine_dir() -> str:
    import os        # local: no engine module holds os (learner programs can reach them)
    return os.path.dirname(os.path.abspath(__file__))


# frames under this directory are the engine's own; a warning names the first caller outside
# (computed once: abspath and dirname on every warning cost more than the warning)
_ENGINE_DIR = _engine_dir()


def warn(message: str, category: type = UserWarning) -> None:
    """Issue a warning (a UserWarning unless told) attributed to the first caller outside the
    engine (the user's line) and report it to the listener."""
    import sys
    import warnings

    from . import _events
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_ENGINE_DIR):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)
    if _events.listener is not None:
        _events.listener.on_warning(category.__name__, message)


_WARNED_ONCE: set = set()


def warn_once(message: str, category: type = UserWarning, key: str | None = None) -> None:
    """`warn`, but only the first time in the process (PyTorch's TORCH_WARN_ONCE): a second
    scalar conversion, or a second `x.T` on a 1-D tensor, elsewhere in the program is quiet.
    Warnings given one `key` share one flag (PyTorch's once-only site behind several texts)."""
    key = message if key is None else key
    if key not in _WARNED_ONCE:
        _WARNED_ONCE.add(key)
        warn(message, category)


def forget_warnings() -> None:
    """Start a new program as a new process would: every warn_once warning may show again.
    The sandbox forks each run from a warm parent, and tests record many programs in one."""
    _WARNED_ONCE.clear()


# the C++ element type some of PyTorch's messages name (not the legacy type name)
_CPP_TYPE = {"ComplexFloat": "c10::complex<float>", "ComplexDouble": "c10::complex<double>",
             "Long": "long int", "Short": "short int", "Byte": "unsigned char",
             "Char": "signed char", "Half": "c10::Half", "BFloat16": "c10::BFloat16"}


def parser_type_name(value) -> str:
    """A Python value's type as PyTorch's argument parser names it in "must be Tensor, not
    ...": numpy's types with their module (numpy.ndarray, numpy.float64), others bare.

    Example:
        >>> import numpy as np
        >>> parser_type_name(np.float64(1.0)), parser_type_name([1.0]), parser_type_name(None)
        ('numpy.float64', 'list', 'NoneType')
    """
    kind = type(value)
    return f"numpy.{kind.__name__}" if kind.__module__ == "numpy" else kind.__name__


def no_complex_kernel(kernel: str, dtype) -> str:
    """PyTorch's refusal of a kernel with no complex version: `"lt_cpu" not implemented for
    'ComplexFloat'`."""
    return f'"{kernel}" not implemented for \'{dtype.legacy[:-6]}\''


def cpp_type(legacy_word: str) -> str:
    """The C++ element type PyTorch names for a legacy type word: "Long" -> "long int",
    "Float" -> "float"."""
    return _CPP_TYPE.get(legacy_word, legacy_word.lower())


def check_grad_assignment(t, g) -> None:
    """PyTorch's refusals when `t.grad = g` has the wrong size or dtype."""
    if g._data.shape != t._data.shape:
        raise RuntimeError(
            f"attempting to assign a gradient of size '{list(g._data.shape)}' to a tensor of "
            f"size '{list(t._data.shape)}'. Please ensure that the gradient and the tensor are "
            "the same size")
    if g._data.dtype != t._data.dtype:
        have, want = g.dtype.legacy[:-6], t.dtype.legacy[:-6]
        raise RuntimeError(
            f"attempting to assign a gradient with dtype '{cpp_type(have)}'"
            " to a tensor with "
            f"grad_dtype '{want}'. The gradient must match the tensor's grad_dtype (defaults to "
            "the tensor's dtype). You can set the tensor's grad_dtype attribute with a specific "
            "dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the "
            "dtypes of a tensor and its gradient may break downstream systems that assume they "
            "match.")


# the signatures PyTorch's legacy constructor (torch.Tensor(...), torch.FloatTensor(...))
# lists when it is given a keyword other than device, as (text, parameter count); "*" counts
_LEGACY_NEW_SIGNATURES = (("*, torch.device device = None", 2), ("torch.Storage storage", 1),
                          ("Tensor other", 1),
                          ("tuple of ints size, *, torch.device device = None", 3),
                          ("object data, *, torch.device device = None", 3))


def legacy_new_keywords(args: tuple, kwargs: dict) -> str:
    """PyTorch's TypeError for `torch.Tensor([1.0], requires_grad=True)`: the legacy
    constructor takes no keyword but device. The keywords are listed last first, as PyTorch
    lists them, and each signature taking as many arguments as were given is marked.

    Example:
        >>> print(legacy_new_keywords(([1.0],), {"requires_grad": True}).splitlines()[0])
        new() received an invalid combination of arguments - got (list, requires_grad=bool), \
but expected one of:
    """
    from .device import device
    from .dtypes import dtype
    from .size import Size
    from .tensor import Tensor

    def name(v) -> str:
        if isinstance(v, Tensor):
            return "Tensor"
        if isinstance(v, (device, dtype, Size)):
            return f"torch.{type(v).__name__}"
        return parser_type_name(v)
    keys = list(reversed(kwargs))
    named = [f"{k}={name(kwargs[k])}" for k in keys]
    got = ", ".join([name(a) for a in args] + named) if args else ", ".join(named) + ", "
    lines = [f"new() received an invalid combination of arguments - got ({got}), but "
             "expected one of:"]
    for text, count in _LEGACY_NEW_SIGNATURES:
        lines.append(f" * ({text})")
        if count == len(args) + len(kwargs):
            lines.append("      didn't match because some of the keywords were incorrect: "
                         + ", ".join(keys))
    return "\n".join(lines) + "\n"
