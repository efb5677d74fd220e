# source: original
# topic: errors
# compare: exact
# visibility: public
# disable_saved_tensors_hooks: opening saved-tensor hooks inside it raises its message.
import torch
a = torch.tensor([1., 2.], requires_grad=True)
msg = "saved tensors hooks are off here"
with torch.autograd.graph.disable_saved_tensors_hooks(msg):
    y = a.exp()                 # no hooks open: fine
    print(y)
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    except RuntimeError as e:
        print("enter:", e)
with torch.autograd.graph.saved_tensors_hooks(lambda t: (print("pack"), t)[1], lambda t: (print("unpack"), t)[1]):
    try:
        with torch.autograd.graph.disable_saved_tensors_hooks("no hooks inside"):
            print("inside")
    except RuntimeError as e:
        print("outer open:", e)
    z = a * a
z.sum().backward()
print(a.grad)
@torch.autograd.graph.disable_saved_tensors_hooks("decorated")
def f(x):
    return x.sin()
print(f(a))
with torch.autograd.graph.disable_saved_tensors_hooks("first"):
    with torch.autograd.graph.disable_saved_tensors_hooks("second"):
        try:
            with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
        except RuntimeError as e:
            print("nested:", e)
    try:
        with torch.autograd.graph.save_on_cpu():
            pass
    except RuntimeError as e:
        print("after inner:", e)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    pass
print("enabled again")
print(torch.autograd.graph.disable_saved_tensors_hooks)
d = torch.autograd.graph.disable_saved_tensors_hooks("x")
print(type(d).__name__)
with torch.autograd.graph.disable_saved_tensors_hooks("uncaught"):
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        pass
