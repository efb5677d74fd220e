"""The deprecated forms PyTorch 2.13 still runs, which old tutorials are full of.

- `old_spelling`: the names without the trailing underscore, `nn.init.xavier_uniform(w)`,
  `nn.utils.clip_grad_norm(...)`: the in-place function, after a FutureWarning.
- `scalar_first`: the scale-first signatures, `p.data.add_(-lr, p.grad)` and the like.

Old tutorials' hand-written SGD step writes the scale first: `add_(alpha, other)`,
`sub_(alpha, other)`, `addcmul_(value, tensor1, tensor2)`, `addcdiv_(value, tensor1,
tensor2)`, as methods and as `torch.*` functions. PyTorch 2.13 still runs them as the keyword
form (`add_(other, alpha=alpha)`) and warns that the overload is deprecated, once per process
for all of them together: its argument parser has a single once-only warning for every
deprecated signature, so after `addcmul_`'s warning a later `add`'s is quiet.

`scalar_first` wraps the engine's keyword-form function; the wrapped function is what
programs reach, so the engine's own calls keep the direct path.
"""
from __future__ import annotations

import functools
from numbers import Number

from . import messages

_WARNING = ("This overload of {name} is deprecated:\n\t{name}({old})\n"
            "Consider using one of the following signatures instead:\n\t{name}({new})")
_ONCE_KEY = "deprecated signature"      # one flag for every overload, as in PyTorch
_OUT = ", *, Tensor out = None"


def old_spelling(new, where: str):
    """`new` (an in-place function such as `xavier_uniform_`) under its old name without the
    underscore, warning on every call as PyTorch's wrappers do; `where` is the module as the
    warning names it (`nn.init`, `torch.nn.utils`)."""
    old = new.__name__[:-1]
    text = f"`{where}.{old}` is now deprecated in favor of `{where}.{new.__name__}`."

    def call(*args, **kwargs):
        messages.warn(text, FutureWarning)
        return new(*args, **kwargs)
    call.__name__ = call.__qualname__ = old
    call.__doc__ = f"Deprecated spelling of `{new.__name__}`."
    return call


def _scalar(value) -> bool:
    from .tensor import Tensor
    if isinstance(value, Tensor):       # a 0-d tensor stands for its number
        return value.ndim == 0
    return isinstance(value, Number)


def _as_number(value):
    from .tensor import Tensor
    return value.item() if isinstance(value, Tensor) else value


def scalar_first(scale: str, tensors: tuple, *, method: bool):
    """Accept `fn(first, scale, *tensors)` besides `fn(first, *tensors, scale=...)`.

    `scale` is the keyword of the number (alpha, value), `tensors` the names of the tensor
    parameters after the first (other; tensor1, tensor2). `method` says whether the first
    parameter is `self` (the warning then leaves out `input` and `out`, and PyTorch's count of
    positional arguments leaves out self)."""
    n = len(tensors)

    def wrap(fn):
        name = fn.__name__
        head = "" if method else "Tensor input, "
        tail = "" if method else _OUT
        old = head + f"Number {scale}, " + ", ".join(f"Tensor {t}" for t in tensors) + tail
        new = (head + ", ".join(f"Tensor {t}" for t in tensors) + f", *, Number {scale} = 1"
               + tail)
        warning = _WARNING.format(name=name, old=old, new=new)
        allowed = n + (0 if method else 1)

        def too_many(args: tuple) -> TypeError:
            # counted as PyTorch counts them: a method's self is not an argument
            total = len(args) + (0 if method else 1)
            return TypeError(f"{name}() takes {allowed} positional argument"
                             f"{'s' if allowed != 1 else ''} but {total} were given")

        @functools.wraps(fn)
        def call(first, *args, **kwargs):
            if len(args) <= n and not kwargs:   # the usual `x.add(t)`: nothing to sort out
                return fn(first, *args)
            given = len(args) + sum(t in kwargs for t in tensors)
            if given <= n or not args or not _scalar(args[0]):
                if len(args) > n:
                    raise too_many(args)
                return fn(first, *args, **kwargs)
            if len(args) > n + 1:
                raise too_many(args)
            # what PyTorch's parser says when neither signature takes the keywords given
            extra = [t for t in tensors if t in kwargs] if given > n + 1 else [scale] * (
                scale in kwargs)
            if extra:
                raise TypeError(f"{name}() received an invalid combination of arguments - got "
                                f"unrecognized keyword arguments: {', '.join(extra)}")
            if any(t in kwargs for t in tensors[:len(args) - 1]):
                raise TypeError(f"{name}(): argument '{tensors[0]}' (position 1) must be "
                                f"Tensor, not {type(args[0]).__name__}")
            messages.warn_once(warning, key=_ONCE_KEY)
            values = list(args[1:]) + [kwargs.pop(t) for t in tensors[len(args) - 1:]]
            kwargs[scale] = _as_number(args[0])
            return fn(first, *values, **kwargs)
        return call
    return wrap
