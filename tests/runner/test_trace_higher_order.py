"""A create_graph pass in causal order: each node the pass records says which backward node's
formula built it (`by`), and the gradient 1 it starts from is named after its root."""
PROGRAM = """\
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
g, = torch.autograd.grad(y, x, create_graph=True)
g2, = torch.autograd.grad(g, x)
print(g, g2)
"""


def test_nodes_built_in_backward_name_their_builder(pool):
    events = pool.run(PROGRAM, trace=True).trace["events"]
    y_op = next(e for e in events if e["kind"] == "op" and e["output"]["name"] == "y")
    pow_node = y_op["node"]["id"]
    built = [e for e in events if e["kind"] == "op" and e["in_backward"]]
    assert built and all(e["by"] == pow_node for e in built)
    # they come while that node runs: after the pass began, before its node_apply
    begin = next(e["seq"] for e in events if e["kind"] == "backward_begin")
    apply = next(e["seq"] for e in events if e["kind"] == "node_apply" and e["node"] == pow_node)
    assert all(begin < e["seq"] < apply for e in built)
    assert not any("by" in e for e in events if e["kind"] == "op" and not e["in_backward"])


def test_the_seed_of_a_create_graph_pass_is_named(pool):
    events = pool.run(PROGRAM, trace=True).trace["events"]
    seeds = [e["tensor"] for e in events if e["kind"] == "tensor" and e["how"] == "backward"]
    assert [t["name"] for t in seeds] == ["∂y/∂y"]
    assert [e["output"]["name"] for e in events if e["kind"] == "op"][-1] == "g"
