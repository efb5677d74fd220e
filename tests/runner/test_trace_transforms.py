"""Transforms in the trace: jacrev fills its Jacobian row by row, jacfwd column by column,
vmap sample by sample, and jvp / vjp carry the J they multiply (docs/trace-format.md,
"Transforms")."""
from gradstep.runner import trace as T

HEAD = """\
import torch
from torch.func import jacrev, jacfwd, jvp, vjp, vmap, hessian


def f(x):
    return torch.stack([x[0] * x[1], x[0].sin(), x[1] ** 2])


x = torch.tensor([1.0, 2.0])
"""
J = [[2.0, 1.0], [0.540302, 0.0], [0.0, 4.0]]


def _transforms(pool, body: str) -> list:
    trace = pool.run(HEAD + body, trace=True).trace
    T.validate(trace)
    return [e for e in trace["events"] if e["kind"].startswith("transform_")]


def test_jacrev_reports_one_row_per_output_element_with_its_one_hot_seed(pool):
    evs = _transforms(pool, "print(jacrev(f)(x))\n")
    begin, *steps, end = evs
    assert (begin["api"], begin["mode"], begin["rows"], begin["cols"]) == ("jacrev", "rows", 3, 2)
    assert begin["in_shapes"] == [[2]] and begin["out_shapes"] == [[3]]
    assert [s["index"] for s in steps] == [0, 1, 2]
    assert [s["seed"]["data"] for s in steps] == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert [s["result"]["data"] for s in steps] == J
    assert end["result"]["data"] == J and end["result"]["shape"] == [3, 2]
    assert {e["transform"] for e in evs} == {0} and all(e["line"] == 10 for e in evs)


def test_each_row_step_follows_its_own_backward_pass(pool):
    events = pool.run(HEAD + "jacrev(f)(x)\n", trace=True).trace["events"]
    kinds = [e["kind"] for e in events]
    ends = [i for i, k in enumerate(kinds) if k == "backward_end"]
    steps = [i for i, k in enumerate(kinds) if k == "transform_step"]
    assert len(ends) == len(steps) == 3
    assert all(e < s for e, s in zip(ends, steps))
    assert all(s < b for s, b in zip(steps, [i for i, k in enumerate(kinds)
                                              if k == "backward_begin"][1:]))


def test_jacfwd_reports_one_column_per_input_element(pool):
    begin, *steps, end = _transforms(pool, "print(jacfwd(f)(x))\n")
    assert (begin["api"], begin["mode"], begin["steps"]) == ("jacfwd", "columns", 2)
    assert [s["seed"]["data"] for s in steps] == [[1, 0], [0, 1]]
    assert [s["result"]["data"] for s in steps] == [list(c) for c in zip(*J)]
    assert end["result"]["data"] == J


def test_hessian_is_a_jacrev_inside_a_column_by_column_hessian(pool):
    evs = _transforms(pool, "hessian(lambda x: (x ** 3).sum())(x)\n")
    apis = [(e["kind"], e["transform"]) for e in evs]
    assert apis[0] == ("transform_begin", 0) and apis[-1] == ("transform_end", 1)
    outer = next(e for e in evs if e["kind"] == "transform_begin" and e["transform"] == 1)
    assert (outer["api"], outer["mode"]) == ("hessian", "columns")
    assert evs[-1]["result"]["data"] == [[6.0, 0.0], [0.0, 12.0]]


def test_autograd_functional_jacobian_goes_row_by_row(pool):
    begin, *steps, end = _transforms(pool, "torch.autograd.functional.jacobian(f, x)\n")
    assert (begin["api"], begin["mode"], len(steps)) == ("jacobian", "rows", 3)
    assert end["result"]["data"] == J


def test_vmap_reports_each_sample_and_the_stacked_result(pool):
    begin, *steps, end = _transforms(
        pool, "vmap(f)(torch.tensor([[1.0, 2.0], [0.0, 3.0]]))\n")
    assert (begin["mode"], begin["rows"], begin["cols"]) == ("batch", 2, None)
    assert [s["seed"]["data"] for s in steps] == [[1, 2], [0, 3]]
    assert steps[1]["result"]["data"] == [0.0, 0.0, 9.0]
    assert end["result"]["shape"] == [2, 3]


def test_jvp_carries_j_the_tangent_and_the_product(pool):
    begin, step, end = _transforms(pool, "jvp(f, (x,), (torch.tensor([1.0, 0.0]),))\n")
    assert (begin["api"], begin["mode"], begin["jacobian"]) == ("jvp", "product", J)
    assert step["seed"]["data"] == [1.0, 0.0]
    assert step["result"]["data"] == [2.0, 0.540302, 0.0] == end["result"]["data"]


def test_vjp_fn_carries_j_the_cotangent_and_the_product(pool):
    begin, step, _ = _transforms(
        pool, "out, fn = vjp(f, x)\nfn(torch.tensor([0.0, 1.0, 1.0]))\n")
    assert (begin["api"], begin["mode"], begin["jacobian"]) == ("vjp", "product", J)
    assert step["seed"]["data"] == [0.0, 1.0, 1.0]
    assert step["result"]["data"] == [0.540302, 4.0]


def test_a_large_product_has_no_jacobian(pool):
    begin, *_ = _transforms(pool, "jvp(lambda v: v * 2, (torch.ones(40),), (torch.ones(40),))\n")
    assert begin["jacobian"] is None and begin["rows"] == begin["cols"] == 40
