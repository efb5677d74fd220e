"""The state the recorder's halves share, declared once for the type checker.

`Recorder` (runner/recorder.py) is made of mixins, one per kind of event (recorder_forward,
recorder_backward, recorder_scopes, recorder_transforms, recorder_tangents, recorder_hooks,
recorder_light); each works on
attributes that `Recorder.__init__` sets up and calls methods another part defines. Every
mixin derives from `RecorderState`, so mypy checks each file against these declarations. The
class holds annotations only: no value, no method at run time, nothing on the hot path.
A new attribute or method that one part uses from another is declared here.
"""
from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import FrameType

    from gradstep.engine.tensor import Tensor


class RecorderState:
    """What the recorder's mixins read and write on `self` (set up by Recorder.__init__)."""

    __slots__ = ()

    limits: dict[str, Any]
    _copy_max: int
    _tids: dict[int, str]                # Tensor._uid -> "tK"
    _rg: dict[int, bool]
    _nids: dict[int, str]                # Node._uid -> "nK"
    _new_params: bool
    _seeds: list[tuple]
    _pending: dict[int, tuple]
    _fresh: list
    _file_kind: dict[str, int]
    _grad_of: dict[int, tuple]
    _grad_obj: dict[str, Any]
    _window: list
    _window_cap: int
    _passes: int
    _active: tuple | None                # (pass, roots, create_graph) while backward runs
    _series: list[list]
    _bw_frame: FrameType | None
    _bw_line: int | None
    _last_grad: tuple | None
    _scan_frame: FrameType | None
    _lines_of: dict
    _op_code: Any
    _op_lines: dict
    _op_depth: int
    _scan_line: int | None
    _dead: bool
    _closing: bool
    _n_transforms: int
    _open_transforms: list
    _op_tangents: dict[int, tuple]
    _locals: dict[int, tuple]
    _local_ok: bool
    _jac_after: dict | None              # J to fill in from the pass (_jacobian_after)
    _recomputing: int                    # checkpoint reruns open inside a pass
    _recomputed: set                     # tensor ids a checkpoint's rerun made
    _outer_passes: list                  # (active, bw frame, bw line, local_ok) or None each
    _bumps: dict[int, tuple]
    _dual_pending: tuple | None
    _scope_stack: list | None
    _scope_head: list
    _scope_tail: deque
    source: str
    filename: str
    _head: list[list]
    _elided: Any                         # trace_summary.Summary, or None outside a loop
    _bound: dict[str, int]
    _again_names: list[str]
    _globals: dict | None
    _lib_fn: str | None
    _light: bool
    _next_light: bool
    _light_names: list[str]
    _light_ops: int
    _light_applies: int
    _loops: Any                          # recorder_loops.LoopClock
    _digits: int
    _named_now: list[str]
    _last_stdout: list | None

    if TYPE_CHECKING:    # defined by Recorder or by one of the mixins
        def on_op(self, op_name: str, inputs: tuple, output, node) -> None: ...
        def _note_local(self, rec: tuple, node, g_in, grads_out: tuple) -> None: ...
        def _note_bump(self, tensor, version: int, tid: str) -> None: ...
        def _modified_node(self) -> Any: ...
        def _bound_pending(self, small: bool) -> None: ...
        def _count_past_cap(self, kind: str) -> None: ...
        def _fail(self, exc: BaseException) -> None: ...
        def _inner_frame(self) -> Any: ...
        def _is_grad(self, t) -> bool: ...
        def _mark_library(self) -> None: ...
        def _mark_library_fn(self, start: int) -> None: ...
        def _track_grad(self, tid: str, grad) -> None: ...
        def _pass(self) -> int: ...
        def _give_name(self, tid: str, name: str) -> bool: ...
        def _light_settles(self, kind: str) -> bool: ...
        def _plan_next(self, frame, line) -> None: ...
        def _line_again(self, frame, new_call: bool = False) -> bool: ...
        def _glance(self, frame) -> None: ...
        def _new_call(self) -> bool: ...
        def _maybe_scan(self, frame, line) -> None: ...
        def _new_tid(self, t: Tensor) -> str: ...
        def _nid(self, node) -> tuple: ...
        def _note_builder(self, out_id: str) -> None: ...
        def _scan(self, frame, line) -> None: ...
        def _settle(self) -> None: ...
        def _close_window(self) -> None: ...
        def _snap(self, t: Tensor) -> tuple: ...
        def _snap_tensor(self, t: Tensor) -> tuple: ...
        def _tid(self, t: Tensor, line) -> str: ...
        def _trim_pending(self) -> None: ...
        def _walk_from(self, f) -> tuple: ...
        def _classify(self, fn: str) -> int: ...
        def _reroute(self) -> None: ...
        def _route(self, target: Any, copies: bool) -> None: ...
        def _quiet_from(self, f) -> bool: ...
        def _where(self) -> tuple: ...
        def _where_in_pass(self, f) -> tuple: ...
