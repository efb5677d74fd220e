# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# The grad_fn class of every unary function and method.
import torch


def names(t):
    return [(None if f is None else type(f).__name__, i) for f, i in t.grad_fn.next_functions]


x = torch.tensor([0.5, 1.5], requires_grad=True)
for label, y in [("neg", torch.neg(x)), ("abs", torch.abs(x)), ("abs method", x.abs()),
                 ("exp", torch.exp(x)), ("log", torch.log(x)), ("sqrt", torch.sqrt(x)),
                 ("sin", torch.sin(x)), ("cos", torch.cos(x)), ("tan", torch.tan(x)),
                 ("tanh", torch.tanh(x)), ("sigmoid", torch.sigmoid(x)),
                 ("relu", torch.relu(x)), ("exp method", x.exp()), ("log method", x.log()),
                 ("pow", torch.pow(x, 3)), ("pow method", x.pow(2)),
                 ("pow tensor", torch.pow(x, x)), ("clamp", torch.clamp(x, 0.0, 1.0)),
                 ("clamp min", x.clamp(min=1.0)), ("clamp max", x.clamp(max=1.0)),
                 ("sigmoid method", x.sigmoid()), ("tanh method", x.tanh()),
                 ("relu method", x.relu()), ("sqrt method", x.sqrt())]:
    print(label, type(y.grad_fn).__name__, names(y))
    print(" ", y)
