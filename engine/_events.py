"""The observation seam: how a recorder (the runner's tracer) watches the engine work.

PyTorch has no single equivalent; think of it as autograd hooks plus `TORCH_FUNCTION_MODE`
for observers only. The engine calls `emit.<kind>(...)` at fixed points; with no listener set
every call site costs one module-attribute check (`if _events.listener is not None`).
The engine never imports the runner: the runner subclasses `Listener` and calls
`set_listener()`.

Call sites guard with ``if _events.listener is not None:`` before building any arguments, so
nothing is computed for nobody.

Example:
    >>> from gradstep.engine import _events
    >>> class Count(_events.Listener):
    ...     def __init__(self): self.ops = 0
    ...     def on_op(self, op_name, inputs, output, node): self.ops += 1
    >>> c = Count(); _events.set_listener(c)
    >>> import gradstep.engine as torch
    >>> _ = torch.ones(2) * 3
    >>> _ = _events.set_listener(None); c.ops
    1
"""
from __future__ import annotations

listener: "Listener | None" = None


def set_listener(new: "Listener | None") -> "Listener | None":
    """Install `new` (or None to stop observing); returns the previous listener."""
    global listener
    old, listener = listener, new
    return old


def hook_ran(kind: str, owner, hook, received: tuple, returned) -> None:
    """Tell the listener that a hook of the program ran; the engine's own hooks (the
    collectors behind module backward hooks and register_multi_grad_hook) are told at the
    program's hook they serve instead. Call only when `listener` is set."""
    module = getattr(hook, "__module__", None) or ""
    if module.startswith(_ENGINE_PACKAGE):
        return
    if listener is not None:
        listener.on_hook(kind, owner, hook, received, returned)


_ENGINE_PACKAGE = __name__.rpartition(".")[0] + "."


class Listener:
    """Every event the engine reports. Override what you need; the rest are no-ops.

    Arguments are live engine objects (Tensor, Node, ndarray); a listener must copy what it
    keeps, because tensors change in place afterwards.
    """

    # NOTE [listener copies]: whether the engine copies, for the listener, values it is about
    # to change in place: in `optimizer.step()` each parameter's array and state before the
    # update, the rule's terms and the arrays after; in an accumulation, the `.grad` before
    # (read at each step, after its closure ran, and at each accumulation). Copying costs
    # about as much as a small model's update itself, so a listener that reads only values
    # after a change (the sandbox's limit watch alone, a recorder summarising the middle of a
    # loop) sets it False: then on_optimizer_update gets None for `before`, `state_before`
    # and `terms`, on_optimizer_step None for `before` and the parameters' own arrays as
    # `after` (to be read before it returns), and on_accumulate None for `before`.
    copies: bool = True

    # ---- forward ---------------------------------------------------------------------
    def on_tensor(self, tensor, how: str) -> None:
        """A tensor was made by a factory or conversion, not by a differentiable op.

        `how` is the public name that made it: "tensor", "zeros", "randn", "detach",
        "from_numpy", "Parameter", "clone-under-no_grad" ... .
        """

    def on_op(self, op_name: str, inputs: tuple, output, node) -> None:
        """An op ran. `inputs` are the Tensor arguments in order; `node` is the grad_fn
        recorded for `output`, or None when no graph was recorded (no_grad, or no input
        requires grad). Views and in-place ops report here too (`op_name` like "mul_")."""

    def on_dual_level(self, level: int, entered: bool) -> None:
        """A forward-mode dual level was entered (`entered` True) or exited; on exit every
        tangent of that level is gone (`forward_ad.tangent_of` then gives None)."""

    def on_module_enter(self, module) -> None:
        """`module.__call__` starts: the ops until the matching exit run inside its forward."""

    def on_module_exit(self, module) -> None:
        """`module.__call__` ends (returning or raising)."""

    def on_step_enter(self, name: str, t: int) -> None:
        """A recurrent layer (nn.RNN, nn.GRU, nn.LSTM) starts time step `t` of one layer and
        direction, `name` as PyTorch's parameter names say it ("l0", "l1_reverse"): the ops
        until the matching exit compute that step."""

    def on_step_exit(self) -> None:
        """The time step begun last ends (returning or raising)."""

    def on_checkpoint(self, function, rerun: bool, entered: bool) -> None:
        """`torch.utils.checkpoint` starts running the program's `function` (`entered`
        True) or has run it (False, also when it raised): its first run, in the forward, or
        with `rerun` its run again inside a backward pass, to get back what the first run did
        not keep. A rerun's ops are reported as ops although the pass has no create_graph:
        they are work the program asked for."""

    def on_inplace(self, tensor, op_name: str, version: int) -> None:
        """`tensor` was modified in place (its version counter is now `version`)."""

    def on_grad_mode(self, enabled: bool, mode: str) -> None:
        """Grad mode changed: `mode` is "no_grad", "enable_grad", "set_grad_enabled" or
        "inference_mode"; `enabled` is the new state (also reported on exit)."""

    # ---- backward --------------------------------------------------------------------
    def on_backward_begin(self, roots: tuple, grad_tensors: tuple, retain_graph: bool,
                          create_graph: bool, inputs, api: str) -> None:
        """A backward pass starts. `api` is "backward" or "grad" (torch.autograd.grad);
        `grad_tensors` are the seeds v (a ones tensor for an implicit scalar seed);
        `inputs` is None or the tuple of tensors the pass is restricted to."""

    def on_node_apply(self, node, grads_in: tuple, grads_out: tuple) -> None:
        """`node` computed `grads_out` (one per next_functions entry, None where absent)
        from `grads_in` (the summed incoming gradient(s) for its outputs)."""

    def on_accumulate(self, tensor, before, added, after) -> None:
        """`tensor.grad` went from `before` (a copy, or None) by `added` to `after`.
        Reported for leaves (through AccumulateGrad) and for retain_grad() non-leaves.
        `before` is None too for a listener that takes no copies (NOTE [listener copies])."""

    def on_graph_freed(self, nodes: tuple) -> None:
        """These nodes' saved tensors were released at the end of a pass without
        retain_graph."""

    def on_backward_end(self, api: str) -> None:
        """The backward pass that began last finished without error."""

    def on_grad_reset(self, tensor, how: str) -> None:
        """`tensor.grad` was zeroed ("zero_") or set to None/a value ("none", "set") by the
        user or by an optimizer's zero_grad."""

    # ---- function transforms -------------------------------------------------------------
    def on_transform_begin(self, api: str, mode: str, inputs: tuple, outputs: tuple,
                           steps: int) -> None:
        """A transform of `torch.func` or `torch.autograd.functional` starts building its
        result. `api` is the public name ("jacrev", "jacfwd", "hessian", "jacobian", "vmap",
        "jvp", "vjp"); `mode` says what each of its `steps` computes: "rows" (one
        vector-Jacobian product per output element), "columns" (one Jacobian-vector product
        per input element), "batch" (one call of the function per sample), or "product" (one
        J·v or uᵀJ). `inputs` are the tensors it differentiates with respect to (or maps
        over), `outputs` the function's results (empty for "batch", not known yet)."""

    def on_transform_step(self, api: str, index: int, seed: tuple, result: tuple) -> None:
        """Step `index` of the transform that began last finished: `seed` are the tensors (or
        arrays) it started from (the one-hot cotangent of each output for a row, the one-hot
        tangent of each input for a column, the slice of each mapped input for a sample, the
        given vector for a product) and `result` what it gave (the row's gradient for each input,
        the column's tangent for each output, the sample's outputs, the product)."""

    def on_transform_end(self, api: str, result: tuple) -> None:
        """The transform that began last handed back `result`: the Jacobian blocks (each
        output's shape + each input's shape), vmap's stacked outputs, or the product."""

    def on_hook(self, kind: str, owner, hook, received: tuple, returned) -> None:
        """A hook the program registered ran (see `hook_ran`). `kind` is "tensor"
        (`Tensor.register_hook`), "node_pre"/"node" (a grad_fn's prehook/hook),
        "module_backward_pre"/"module_backward" (`register_full_backward_[pre_]hook`),
        "forward_pre"/"forward" (a module's forward hooks) or "multi_grad"
        (`register_multi_grad_hook`); `owner` the tensor, node, module or tuple of tensors it
        is on; `received` the tensors (or None) it got; `returned` what it gave back (None:
        nothing, the values go on unchanged)."""

    # ---- training --------------------------------------------------------------------
    def on_optimizer_step(self, optimizer, params: tuple, before: tuple | None,
                          after: tuple) -> None:
        """`optimizer.step()` changed `params`; `before`/`after` are ndarray copies (but see
        NOTE [listener copies])."""

    def on_optimizer_update(self, optimizer, param, group: dict, before, state_before: dict,
                            terms: dict) -> None:
        """Inside `optimizer.step()`, one parameter was updated by its optimizer's rule (one
        call per parameter, before `on_optimizer_step`). `before` is a copy of its array
        before, `state_before` copies of its `optimizer.state[param]` entries before (empty
        on its first step); the state after is `optimizer.state[param]` itself. `terms` are
        the rule's intermediate quantities, by name, in the order the rule uses them (floats
        or ndarray copies; the names are listed in docs/trace-format.md). All three are None
        for a listener that takes no copies (NOTE [listener copies])."""

    def on_zero_grad(self, optimizer, params: tuple, set_to_none: bool) -> None:
        """`optimizer.zero_grad(set_to_none)` starts resetting these parameters' gradients
        (each reset then reports `on_grad_reset`)."""

    def on_lr_step(self, scheduler, before: list, after: list) -> None:
        """A learning-rate scheduler's `step()` set each group's lr from `before` to `after`
        (also reported for the step its constructor takes)."""

    def on_warning(self, category: str, message: str) -> None:
        """The engine issued a warning (PyTorch's text), e.g. UserWarning."""
