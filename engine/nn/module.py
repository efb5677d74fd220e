"""`nn.Module`: the base of every layer and model, holding Parameters, buffers and submodules.

PyTorch counterpart: `torch.nn.Module`. Assigning a `Parameter` or a `Module` to an attribute
registers it (`__setattr__`), so `parameters()`, `state_dict()`, `zero_grad()` and the
repr find it; registration order is kept, so names and repr read as in PyTorch.
"""
from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Iterator

from .. import _events
from .._names import PACKAGE, TorchNamed, typename
from ..grad_mode import no_grad
from ..graph import RemovableHandle
from ..tensor import Tensor, counter
from .parameter import Parameter
from .. import messages


class _IncompatibleKeys(namedtuple("_IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What load_state_dict returns; prints PyTorch's sentence when everything matched."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (f"_IncompatibleKeys(missing_keys={self.missing_keys!r}, "
                f"unexpected_keys={self.unexpected_keys!r})")

    __str__ = __repr__


def _addindent(text: str, spaces: int) -> str:
    """Indent every line but the first (how PyTorch nests child reprs)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    pad = " " * spaces
    return lines[0] + "\n" + "\n".join(pad + line for line in lines[1:])


def _type_name(value) -> str:
    """PyTorch's legacy type name for a tensor in messages (`torch.FloatTensor`)."""
    if isinstance(value, Tensor):
        names = {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int",
                 "bool": "Bool", "float16": "Half", "uint8": "Byte", "int16": "Short",
                 "int8": "Char"}
        return f"torch.{names.get(value._data.dtype.name, 'Float')}Tensor"
    return typename(value)      # a module by its PyTorch path: torch.nn.modules.linear.Linear


# PyTorch's module files where they differ from ours (nn.Dropout is in torch.nn.modules.dropout)
_TORCH_FILE = {"Dropout": "dropout", "Dropout1d": "dropout", "Dropout2d": "dropout",
               "Dropout3d": "dropout", "_DropoutNd": "dropout", "Flatten": "flatten",
               "MultiheadAttention": "activation", "NonDynamicallyQuantizableLinear": "linear"}


class _ForwardHook:
    """One registered forward (pre-)hook and how it was registered; the handle removes this
    very object, so one function registered twice is two hooks, as in PyTorch."""

    __slots__ = ("fn", "with_kwargs", "always_call")

    def __init__(self, fn, with_kwargs: bool, always_call: bool) -> None:
        self.fn, self.with_kwargs, self.always_call = fn, with_kwargs, always_call

    def before(self, module, args: tuple, kwargs: dict) -> tuple:
        if not self.with_kwargs:
            new = self.fn(module, args)
            if _events.listener is not None:
                _events.hook_ran("forward_pre", module, self.fn, args, new)
            if new is None:
                return args, kwargs
            return (new if isinstance(new, tuple) else (new,)), kwargs
        new = self.fn(module, args, kwargs)
        if _events.listener is not None:
            _events.hook_ran("forward_pre", module, self.fn, args, new)
        if new is None:
            return args, kwargs
        if not (isinstance(new, tuple) and len(new) == 2):
            raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, "
                               f"new_kwargs), but got {new}.")
        return new

    def after(self, module, args: tuple, kwargs: dict, out):
        new = self.fn(module, args, kwargs, out) if self.with_kwargs else \
            self.fn(module, args, out)
        if _events.listener is not None:
            _events.hook_ran("forward", module, self.fn, (out,), new)
        return out if new is None else new

    def after_failure(self, module, args: tuple, kwargs: dict) -> None:
        """An always_call hook after forward raised: its own error only warns."""
        try:
            self.after(module, args, kwargs, None)
        except Exception as e:
            messages.warn("module forward hook with ``always_call=True`` raised an exception "
                          "that was silenced as another error was raised in forward: "
                          f"{e}", UserWarning)


class Module(metaclass=TorchNamed):
    """Base class of layers and models: subclass it, assign layers in `__init__`, write
    `forward`, and call the module like a function.

    Example:
        >>> import gradstep.engine as torch
        >>> class Net(torch.nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = torch.nn.Linear(2, 1)
        ...     def forward(self, x):
        ...         return self.fc(x)
        >>> net = Net()
        >>> [name for name, _ in net.named_parameters()]
        ['fc.weight', 'fc.bias']
        >>> net(torch.ones(4, 2)).shape
        torch.Size([4, 1])
    """

    _torch_name = "torch.nn.modules.module.Module"

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        # our own layers print as PyTorch's (a learner's class keeps its own name)
        if cls.__module__.startswith(PACKAGE + ".nn."):
            tail = _TORCH_FILE.get(cls.__name__, cls.__module__.rsplit(".", 1)[1])
            cls._torch_name = f"torch.nn.modules.{tail}.{cls.__name__}"

    training: bool
    _version: int = 1       # saved in state_dict metadata; see _upgrade_state_dict

    def __init__(self, *args, **kwargs) -> None:
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument "
                            f"but {len(args) + 1} were given")
        # object.__setattr__: our own __setattr__ needs these dicts to exist already. Plain
        # dicts, as PyTorch's: they show through ModuleDict.keys() and the like.
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args, **kwargs):
        listener = _events.listener
        if listener is None:
            return self._call(args, kwargs)
        # a listener (the tracer) sees which module's forward the ops run in
        listener.on_module_enter(self)
        try:
            return self._call(args, kwargs)
        finally:
            listener.on_module_exit(self)

    def _call(self, args: tuple, kwargs: dict):
        hooks = self.__dict__.get("_forward_hooks")
        if hooks is None:           # the common case: no hooks, one dict lookup
            return self.forward(*args, **kwargs)
        for hook in list(hooks["pre"]):
            args, kwargs = hook.before(self, args, kwargs)
        backward = None
        if hooks["bw"] or hooks["bw_pre"]:
            from .backward_hooks import BackwardHook
            backward = BackwardHook(self, list(hooks["bw"]), list(hooks["bw_pre"]))
            args = backward.setup_input_hook(args)
        try:
            out = self.forward(*args, **kwargs)
        except Exception:
            for hook in list(hooks["post"]):
                if hook.always_call:
                    hook.after_failure(self, args, kwargs)
            raise
        for hook in list(hooks["post"]):
            out = hook.after(self, args, kwargs, out)
        if backward is not None:
            out = backward.setup_output_hook(out)
        return out

    def register_forward_pre_hook(self, hook, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """`hook(module, args)` runs before forward; a non-None return replaces the args.
        With with_kwargs, `hook(module, args, kwargs)` may return (new_args, new_kwargs)."""
        return self._add_hook("pre", _ForwardHook(hook, with_kwargs, False), prepend)

    def register_forward_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        """`hook(module, args, output)` runs after forward; a non-None return replaces output.
        With with_kwargs it is `hook(module, args, kwargs, output)`; with always_call it also
        runs (with output None) when forward raised."""
        return self._add_hook("post", _ForwardHook(hook, with_kwargs, always_call), prepend)

    def register_full_backward_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """`hook(module, grad_input, grad_output)` runs once the gradients with respect to the
        module's inputs are known; a non-None return replaces grad_input (backward_hooks.py)."""
        return self._add_hook("bw", hook, prepend)

    def register_full_backward_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """`hook(module, grad_output)` runs when the output gradients are known; a non-None
        return replaces them."""
        return self._add_hook("bw_pre", hook, prepend)

    def _add_hook(self, kind: str, hook, prepend: bool = False) -> RemovableHandle:
        # one dict for every kind, so that __call__ without hooks costs one lookup
        hooks = self.__dict__.setdefault("_forward_hooks",
                                         {"pre": [], "post": [], "bw": [], "bw_pre": []})
        if prepend:
            hooks[kind].insert(0, hook)
        else:
            hooks[kind].append(hook)
        return RemovableHandle(hooks[kind], hook)

    # ---- registration ------------------------------------------------------------------
    def __setattr__(self, name: str, value) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep="_parameters")
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
            return
        modules = self.__dict__.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep="_modules")
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = None
            return
        buffers = self.__dict__.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_type_name(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def _forget(self, name: str, keep: str = "") -> None:
        """Drop `name` from every registry but `keep` before it is registered there (so a
        replaced parameter or submodule keeps its place in named_parameters() and print)."""
        self.__dict__.pop(name, None)
        for d in ("_parameters", "_buffers", "_modules"):
            if d != keep:
                self.__dict__[d].pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name: str):
        # only reached when normal lookup failed: look in the registries
        d = self.__dict__
        params = d.get("_parameters")
        if params is not None and name in params:   # the usual case (self.weight), first
            return params[name]
        for registry in ("_buffers", "_modules"):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for registry in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__.get(registry, ()):
                del self.__dict__[registry][name]
                return
        object.__delattr__(self, name)

    def __dir__(self):
        extra = [k for r in ("_parameters", "_buffers", "_modules") for k in self.__dict__[r]]
        return sorted(set(super().__dir__()) | set(extra))

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add `param` under `name` (None keeps the slot without a tensor)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name(name, "parameter", self)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_type_name(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not a parameter (saved in state_dict if persistent)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name(name, "buffer", self)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_type_name(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: "Module | None") -> None:
        """Register `module` as a child called `name`."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        _check_name(name, "module", self, allow_dot_check=True)
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target: str) -> "Module":
        mod = self
        for part in target.split(".") if target else ():
            if part not in mod._modules:
                raise AttributeError(f"{mod._get_name()} has no attribute `{part}`")
            mod = mod._modules[part]
        return mod

    def get_parameter(self, target: str) -> Parameter:
        path, _, name = target.rpartition(".")
        mod = self.get_submodule(path)
        if name not in mod._parameters:
            raise AttributeError(f"{mod._get_name()} has no parameter `{name}`")
        return mod._parameters[name]

    # ---- traversal ---------------------------------------------------------------------
    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator:
        """(qualified name, module) for this module and every descendant, depth first."""
        # an explicit stack, not recursion: deep nests must not hit the recursion limit
        memo = set() if memo is None else memo
        stack = [(prefix, self)]
        while stack:
            name, mod = stack.pop()
            if remove_duplicate:
                if id(mod) in memo:
                    continue
                memo.add(id(mod))
            yield name, mod
            children = [(name + ("." if name else "") + k, m)
                        for k, m in mod._modules.items() if m is not None]
            stack.extend(reversed(children))

    def modules(self) -> Iterator:
        for _, m in self.named_modules():
            yield m

    def named_children(self) -> Iterator:
        seen = set()
        for name, m in self._modules.items():
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                yield name, m

    def children(self) -> Iterator:
        for _, m in self.named_children():
            yield m

    def _named_members(self, registry: str, prefix: str, recurse: bool,
                       remove_duplicate: bool) -> Iterator:
        mods = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        seen = set()
        for mod_prefix, mod in mods:
            for k, v in getattr(mod, registry).items():
                if v is None or (remove_duplicate and id(v) in seen):
                    continue
                seen.add(id(v))
                yield mod_prefix + ("." if mod_prefix else "") + k, v

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator:
        """(qualified name, Parameter) pairs, in registration order; shared ones once."""
        # a generator of its own (not _named_members'), so it prints as PyTorch's does:
        # <generator object Module.named_parameters at 0x...>
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator:
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn) -> "Module":
        """Call `fn` on every submodule and then on self; returns self.

        The order is PyTorch's: each child's subtree in order, depth first, then the module
        itself, which decides the order random initialisers draw in. Kept iterative (an
        explicit stack), so deep nests do not reach the recursion limit.
        """
        stack = [(self, False)]
        while stack:
            mod, children_done = stack.pop()
            if children_done:
                fn(mod)
                continue
            stack.append((mod, True))
            stack.extend((child, False) for child in reversed(list(mod.children())))
        return self

    # ---- modes and gradients -----------------------------------------------------------
    def train(self, mode: bool = True) -> "Module":
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self) -> "Module":
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> "Module":
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all parameters: to None by default (PyTorch 2.x)."""
        for p in self.parameters():
            _reset_grad(p, set_to_none)

    # ---- dtype conversion ----------------------------------------------------------------
    def _convert(self, fn) -> "Module":
        with no_grad():
            for m in self.modules():
                for d in (m._parameters, m._buffers):
                    for _k, t in d.items():
                        if t is not None:   # through `.data`, whose checks PyTorch applies
                            t.data = fn(t)
                            if t._grad is not None:
                                t._grad.data = fn(t._grad)
        return self

    def to(self, *args, **kwargs) -> "Module":
        from ..device import is_device_spec, place
        from ..dtypes import dtype as _dtype
        target = kwargs.get("dtype")
        place(kwargs.get("device"))
        for a in args:
            if isinstance(a, _dtype):
                target = a
            elif is_device_spec(a) or isinstance(a, int):
                place(a)
        if target is None:
            return self
        return self._convert(lambda t: t.to(target) if t.is_floating_point() else t)

    def float(self) -> "Module":
        from ..dtypes import float32
        return self.to(float32)

    def double(self) -> "Module":
        from ..dtypes import float64
        return self.to(float64)

    def type(self, dst_type) -> "Module":
        """Every parameter and buffer converted with `Tensor.type(dst_type)`, integer buffers
        included (unlike `to`, which leaves those alone)."""
        return self._convert(lambda t: t.type(dst_type))

    def cpu(self) -> "Module":
        return self

    def cuda(self, device=None) -> "Module":
        from ..device import no_cuda
        no_cuda()

    # ---- state -------------------------------------------------------------------------
    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        """Parameters and persistent buffers by qualified name (detached unless keep_vars)."""
        out = destination
        if out is None:
            # PyTorch records each module's _version beside the tensors, so that loading can
            # tell an old checkpoint (BatchNorm before num_batches_tracked) from a new one.
            out = OrderedDict()
            out._metadata = OrderedDict()
        metadata = getattr(out, "_metadata", None)
        for mod_prefix, mod in self.named_modules(prefix=prefix.rstrip(".")):
            dot = mod_prefix + "." if mod_prefix else ""
            if metadata is not None:
                metadata[mod_prefix] = {"version": mod._version}
            for k, v in mod._parameters.items():
                if v is not None:
                    out[dot + k] = v if keep_vars else v.detach()
            for k, v in mod._buffers.items():
                if v is not None and k not in mod._non_persistent_buffers_set:
                    out[dot + k] = v if keep_vars else v.detach()
        return out

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """Copy tensors from `state_dict` into parameters and buffers of the same name."""
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)     # upgrades below must not touch the caller's
        for name, mod in self.named_modules():
            local = metadata.get(name, {}) if metadata is not None else {}
            mod._upgrade_state_dict(state_dict, name + "." if name else "", local.get("version"))
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = []
        for k, target in own.items():
            if k in state_dict and tuple(state_dict[k].shape) != tuple(target.shape):
                errors.append(f"size mismatch for {k}: copying a param with shape "
                              f"{state_dict[k].shape!r} from checkpoint, the shape in current "
                              f"model is {target.shape!r}.")
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                self._get_name(), "\n\t".join(errors)))
        with no_grad():
            for k, target in own.items():
                if k in state_dict:
                    target.copy_(state_dict[k])
        return _IncompatibleKeys(missing, unexpected)

    def _upgrade_state_dict(self, state_dict, prefix: str, version) -> None:
        """Fill in what a checkpoint saved by an older version of this module lacks (a
        subclass that bumps `_version` overrides it; `version` is None when unrecorded)."""

    # ---- printing ----------------------------------------------------------------------
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The text inside the parentheses of this module's repr line (override it)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr().split("\n") if self.extra_repr() else []
        children = [f"({k}): {_addindent(repr(m), 2)}" for k, m in self._modules.items()]
        lines = extra + children
        body = ""
        if len(extra) == 1 and not children:
            body = extra[0]
        elif lines:
            body = "\n  " + "\n  ".join(lines) + "\n"
        return f"{self._get_name()}({body})"


_REGISTRY = {"parameter": "_parameters", "buffer": "_buffers", "module": "_modules"}


def _check_name(name, kind: str, module: Module, allow_dot_check: bool = False) -> None:
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
    if "." in name:
        raise KeyError(f'{kind} name can\'t contain "."')
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')
    # any attribute by that name, a registered one of another kind too, except one of its own
    # kind (re-registering replaces it)
    registries = {r: module.__dict__[r] for r in ("_parameters", "_buffers", "_modules")}
    exists = (hasattr(type(module), name) or name in module.__dict__
              or any(name in r for r in registries.values()))
    if exists and name not in registries[_REGISTRY[kind]]:
        raise KeyError(f"attribute '{name}' already exists")


def _reset_grad(p: Tensor, set_to_none: bool) -> None:
    """One parameter's part of zero_grad, as PyTorch 2.x does it; reported to the listener."""
    if p._grad is None:
        return
    if set_to_none:
        p.grad = None     # the Tensor.grad setter reports on_grad_reset(p, "none")
        return
    g = p._grad
    if g.grad_fn is not None:
        g.detach_()
    else:
        g.requires_grad_(False)
    if g.is_sparse:
        g.zero_()       # PyTorch's zero_ of a sparse tensor: no entries left
    else:
        g._data[...] = 0
    counter(g)[0] += 1
    if _events.listener is not None:
        _events.listener.on_grad_reset(p, "zero_")


__all__ = ["Module", "Parameter"]
