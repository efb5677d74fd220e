"""Names in the trace are the program's: module paths, numbered rebindings, the loss of each
iteration, and a module's construction folded into one library step (docs/trace-format.md,
section 3, "Names")."""
import re

SEQUENTIAL = """\
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(5, 4)
y = torch.randn(5, 1)
for step in range(3):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
"""

CUSTOM = """\
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.blocks = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        for block in self.blocks:
            h = block(h)
        return h * self.scale

torch.manual_seed(0)
model = Net()
out = model(torch.ones(2, 3)).sum()
out.backward()
"""

REBIND = """\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y = y + 1
y = y.exp()
y.sum().backward()
"""


def names(trace) -> dict:
    """tensor id -> name, from every event that describes a tensor (carried ones too)."""
    out = {}
    stack = list(trace["events"])
    while stack:
        e = stack.pop()
        stack.extend(e.get("carried") or [])
        t = e.get("tensor") if e["kind"] == "tensor" else e.get("output")
        if isinstance(t, dict):
            out[t["id"]] = t["name"]
    return out


def test_sequential_parameters_are_named_by_their_path_and_built_in_one_step(pool):
    trace = pool.run(SEQUENTIAL, trace=True).trace
    events = trace["events"]
    first = events[0]
    assert first["kind"] == "elided" and first["reason"] == "library" and first["line"] == 5
    params = [c["tensor"]["name"] for c in first["carried"]
              if c["kind"] == "tensor" and c["how"] == "Parameter"]
    assert params == ["model[0].weight", "model[0].bias", "model[2].weight", "model[2].bias"]
    # the initialisation is inside that step, never a step of its own
    assert not any(e["kind"] == "inplace" and e["op"] == "uniform_" for e in events)
    assert trace["truncated"] is False
    # the optimizer holds the same tensors, so its step names them the same way
    step = next(e for e in events if e["kind"] == "optimizer_step")
    by_id = names(trace)
    assert [by_id[p["tensor"]] for p in step["params"]] == params
    # the loss of each iteration: loss, loss₂, loss₃ (roots of the three passes)
    roots = [by_id[e["roots"][0]] for e in events if e["kind"] == "backward_begin"]
    assert roots == ["loss", "loss₂", "loss₃"]


def test_custom_module_paths_are_seen_from_outside(pool):
    trace = pool.run(CUSTOM, trace=True).trace
    all_names = set(filter(None, names(trace).values()))
    assert {"model.fc1.weight", "model.fc1.bias", "model.blocks[0].weight",
            "model.blocks[1].bias", "model.scale"} <= all_names
    assert not any(n.startswith("self") for n in all_names)
    # the forward's local `h`, rebound by each block of a loop whose body is one line
    assert {"h", "h₂", "h₃"} <= all_names


def test_rebindings_are_numbered_in_order(pool):
    trace = pool.run(REBIND, trace=True).trace
    ops = [e["output"]["name"] for e in trace["events"] if e["kind"] == "op"]
    assert ops[:3] == ["y", "y₂", "y₃"]


ONE_LINE_LOOPS = """\
import torch
import torch.nn as nn
torch.manual_seed(0)
Wx = torch.randn(2, 3, requires_grad=True)
Wh = torch.randn(3, 3, requires_grad=True)
xs = torch.randn(3, 2)
h = torch.zeros(3)
for t in range(3):
    h = torch.tanh(xs[t] @ Wx + h @ Wh)
y = h
for i in range(2): y = y * 2
for i in range(2):
    y = torch.sin(y)
lin = nn.Linear(3, 3)
for i in range(2):
    y = lin(y)
y.sum().backward()
"""


def test_a_loop_whose_body_is_one_line_names_every_iteration(pool):
    # the line runs again each iteration: the last one's assignment is named before the next
    # begins, whether the line makes several ops, one op, one function call or a module call
    trace = pool.run(ONE_LINE_LOOPS, trace=True).trace
    made = [e["output"]["name"] for e in trace["events"]
            if e["kind"] == "op" and e["output"]["name"] and e["output"]["name"][0] in "hy"]
    assert made == ["h₂", "h₃", "h₄", "y", "y₂", "y₃", "y₄", "y₅", "y₆"]


def test_a_long_loop_of_one_line_names_every_iteration_with_its_number(pool):
    # looking at every variable every iteration would slow a long chain: after the first
    # hundred iterations only the variables the loop binds are read, and at the module level
    # that names each result all the same, numbered as the program bound it
    program = "import torch\ny = torch.ones(2, requires_grad=True)\nfor i in range(300):\n" \
              "    y = y * 1.5\nprint(y.sum().item())\n"
    trace = pool.run(program, trace=True).trace
    ops = [e["output"] for e in trace["events"] if e["kind"] == "op" and e["op"] == "mul"]
    assert len(ops) == 300
    assert [o["name"] for o in ops[:3]] == ["y₂", "y₃", "y₄"]
    assert [o["name"] for o in ops[-2:]] == ["y₃₀₀", "y₃₀₁"]


def test_no_event_carries_an_internal_id_as_a_name(pool):
    for program in (SEQUENTIAL, CUSTOM, REBIND):
        for name in filter(None, names(pool.run(program, trace=True).trace).values()):
            assert not re.fullmatch(r"[tn]\d+", name)
