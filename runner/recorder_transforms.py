"""The recorder's transform events: a Jacobian filled row by row or column by column, a
vmap's samples, a J·v or uᵀJ (docs/trace-format.md, "Transforms").

The engine reports each transform of `torch.func` and `torch.autograd.functional` as it
works (engine/func/_report.py). These methods turn that into three records: the transform's
begin (its sizes, and for a product the J it multiplies), one step per row, column or sample
(the seed it started from, what it gave), and its end (the whole result). Transforms nest
(hessian is jacfwd of jacrev), so the open ones are a stack. Values are laid end to end over
a transform's outputs (rows) and inputs (columns): row i of the matrix is the i-th element of
all outputs flattened in order.
"""
from __future__ import annotations

import warnings

import numpy as np

from gradstep.engine import _events

from .recorder_backward import _tensor_from, _walk
from .trace_build import num
from .recorder_state import RecorderState


def _flat(parts) -> np.ndarray:
    """The tensors (or arrays) of `parts`, flattened and laid end to end."""
    arrays = [np.asarray(getattr(p, "_data", p)).ravel() for p in parts]
    if not arrays:
        return np.zeros(0, dtype=np.float32)
    return np.concatenate(arrays) if len(arrays) > 1 else arrays[0]


def _sizes(tensors) -> list:
    return [int(t._data.size) for t in tensors]


class TransformEvents(RecorderState):
    """Recorder methods for transform events (runner/recorder.py's Recorder has the state)."""

    def _array_snap(self, a: np.ndarray) -> tuple:
        return (a.tobytes() if a.size <= self._copy_max else None, a.shape, a.dtype, False,
                None)

    def on_transform_begin(self, api, mode, inputs, outputs, steps) -> None:
        line, _, _ = self._where()
        self._settle()
        k = self._n_transforms
        self._n_transforms += 1
        in_sizes, out_sizes = _sizes(inputs), _sizes(outputs)
        self._open_transforms.append((k, api, mode, in_sizes, out_sizes))
        if len(self._window) > self._window_cap:
            return self._count_past_cap("transform_begin")
        if mode == "batch":
            rows, cols = int(steps), None
        else:
            rows, cols = sum(out_sizes), sum(in_sizes)
        jac = self._product_matrix(outputs, inputs) if mode == "product" else None
        self._window.append(("transform_begin", line, k, api, mode,
                             [list(t.shape) for t in inputs], [list(t.shape) for t in outputs],
                             int(steps), rows, cols, jac))

    def on_transform_step(self, api, index, seed, result) -> None:
        if not self._open_transforms:
            return
        if len(self._window) > self._window_cap:
            return self._count_past_cap("transform_step")
        # No _settle: the step closes the row's backward pass and belongs in its window.
        line = self._where()[0]
        k = self._open_transforms[-1][0]
        self._window.append(("transform_step", line, k, int(index),
                             self._array_snap(_flat(seed)), self._array_snap(_flat(result))))

    def on_transform_end(self, api, result) -> None:
        if not self._open_transforms:
            return
        k, _, mode, in_sizes, out_sizes = self._open_transforms.pop()
        if len(self._window) > self._window_cap:
            return self._count_past_cap("transform_end")
        line, _, _ = self._where()
        self._settle()
        if mode in ("rows", "columns"):
            arr = _assemble(result, out_sizes, in_sizes)
        elif mode == "batch" and len(result) == 1:
            arr = np.asarray(result[0]._data)
        else:
            arr = _flat(result)
        self._window.append(("transform_end", line, k, self._array_snap(arr)))

    def _product_matrix(self, outputs, inputs) -> list | None:
        """J of the outputs with respect to the inputs, for the panel that multiplies it by a
        vector: computed unobserved by one-hot vector-Jacobian products, as backward_begin's J
        is, and only when it is small and safe to compute (recorder_backward._jacobian)."""
        cap = self.limits["jacobian_max_numel"]
        live = [o for o in outputs if o.requires_grad]
        n_out, n_in = sum(_sizes(outputs)), sum(_sizes(inputs))
        if not live or not inputs or n_out > cap or n_in > cap:
            return None
        _, nodes, unsafe = _walk(live, self.limits["jacobian_max_nodes"])
        if unsafe or any(n._freed for n in nodes):
            return None
        from gradstep.engine import autograd
        digits = self.limits["digits"]
        mat = np.zeros((n_out, n_in))
        old = _events.set_listener(None)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                row = 0
                for o in outputs:
                    for i in range(o._data.size):
                        if o.requires_grad:
                            onehot = np.zeros(o._data.size, dtype=o._data.dtype)
                            onehot[i] = 1
                            probe = _tensor_from(onehot.reshape(o._data.shape))
                            g = autograd.grad([o], list(inputs), grad_outputs=[probe],
                                              retain_graph=True, allow_unused=True)
                            mat[row] = _flat([np.zeros(x._data.size) if gi is None else gi
                                              for gi, x in zip(g, inputs)])
                        row += 1
        except Exception:  # J is an illustration; never let it break a run
            return None
        finally:
            _events.set_listener(old)
        return [[num(x, digits) for x in r] for r in mat.tolist()]


def _assemble(blocks, out_sizes: list, in_sizes: list) -> np.ndarray:
    """The Jacobian as one matrix from its blocks (each output's by each input's, in that
    order): rows run over all outputs' elements, columns over all inputs'."""
    first = np.asarray(blocks[0]._data) if blocks else np.zeros(0, dtype=np.float32)
    mat = np.zeros((sum(out_sizes), sum(in_sizes)), dtype=first.dtype)
    it = iter(blocks)
    r0 = 0
    for n_out in out_sizes:
        c0 = 0
        for n_in in in_sizes:
            block = next(it, None)
            if block is not None:
                mat[r0:r0 + n_out, c0:c0 + n_in] = np.asarray(block._data).reshape(n_out, n_in)
            c0 += n_in
        r0 += n_out
    return mat
