"""Module backward hooks (`register_full_backward_hook`, `register_full_backward_pre_hook`).

PyTorch's mechanism, kept visible: a module with such hooks passes its tensor inputs, and then
its outputs, through an identity `BackwardHookFunction` (so outputs show
`grad_fn=<BackwardHookFunctionBackward>`). A hook on the outputs' node captures the gradients
with respect to the outputs; a hook on the inputs' node then calls
`hook(module, grad_input, grad_output)` and may replace grad_input.
"""
from __future__ import annotations

from .. import _events, messages
from ..autograd.function import Function
from ..grad_mode import is_grad_enabled
from ..tensor import Tensor

_NO_INPUT_GRAD = ("Full backward hook is firing when gradients are computed with respect to "
                  "module outputs since no inputs require gradients. See "
                  "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                  "#torch.nn.Module.register_full_backward_hook for more details.")


class BackwardHookFunction(Function):
    """Identity on its tensor arguments; only there to carry the module's hooks."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


def _pack(indices, values, size: int) -> tuple:
    out = [None] * size
    for i, v in zip(indices, values):
        out[i] = v
    return tuple(out)


class BackwardHook:
    """The per-call state that joins a module's output and input gradients for its hooks."""

    def __init__(self, module, hooks: list, pre_hooks: list) -> None:
        self.module, self.hooks, self.pre_hooks = module, hooks, pre_hooks
        self.grad_outputs = self.input_index = self.output_index = None
        self.n_inputs = self.n_outputs = 0

    def _wrap(self, values: tuple, on_node):
        """Pass the tensors among `values` through BackwardHookFunction; hook its node."""
        index = [i for i, v in enumerate(values) if isinstance(v, Tensor)]
        tensors = [values[i] for i in index]
        if not (is_grad_enabled() and any(t.requires_grad for t in tensors)):
            return values, None
        wrapped = BackwardHookFunction.apply(*tensors)
        node = next(t.grad_fn for t in wrapped if t.grad_fn is not None)

        # PyTorch registers a closure called `hook` on both nodes, and the engine names the
        # node hook in its errors ("hook 'hook' has changed the size of value").
        def hook(grad_inputs, grad_outputs):
            return on_node(grad_inputs, grad_outputs)
        node.register_hook(hook)
        out = list(values)
        for i, t in zip(index, wrapped):
            out[i] = t
        return tuple(out), index

    def setup_input_hook(self, args: tuple) -> tuple:
        self.n_inputs = len(args)
        args, self.input_index = self._wrap(args, self._on_inputs)
        return args

    def setup_output_hook(self, result):
        single = not isinstance(result, tuple)
        values = (result,) if single else result
        self.n_outputs = len(values)
        values, self.output_index = self._wrap(values, self._on_outputs)
        return values[0] if single else values

    def _on_outputs(self, grad_inputs, grad_outputs):
        self.grad_outputs = _pack(self.output_index, grad_outputs, self.n_outputs)
        for pre in self.pre_hooks:
            new = pre(self.module, self.grad_outputs)
            if _events.listener is not None:
                _events.hook_ran("module_backward_pre", self.module, pre, self.grad_outputs, new)
            if new is not None:
                if len(new) != len(self.grad_outputs):
                    raise RuntimeError(f"Backward pre hook returned an invalid number of "
                                       f"grad_output, got {len(new)}, but expected "
                                       f"{len(self.grad_outputs)}")
                self.grad_outputs = tuple(new)
        changed = tuple(self.grad_outputs[i] for i in self.output_index)
        if self.input_index is None:
            messages.warn(_NO_INPUT_GRAD)
            nothing = (None,) * self.n_inputs
            for hook in self.hooks:
                res = hook(self.module, nothing, self.grad_outputs)
                if res is not None and not (isinstance(res, tuple)
                                            and all(r is None for r in res)):
                    raise RuntimeError("Backward hook for Modules where no input requires "
                                       "gradient should always return None or None for all "
                                       "gradients.")
            self.grad_outputs = None
        return changed

    def _on_inputs(self, grad_inputs, grad_outputs):
        if self.grad_outputs is None:
            return None
        res = _pack(self.input_index, grad_inputs, self.n_inputs)
        for hook in self.hooks:
            new = hook(self.module, res, self.grad_outputs)
            if _events.listener is not None:
                _events.hook_ran("module_backward", self.module, hook, res, new)
            if new is None:
                continue
            if len(new) != len(res):
                raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                   f"got {len(new)}, but expected {len(res)}")
            res = tuple(new)
        self.grad_outputs = None
        return tuple(res[i] for i in self.input_index)
