# source: original
# topic: Tensor operators with None or a string on either side: PyTorch's operators answer
#   NotImplemented, so == and != compare identities, "ab" * t asks for an index, and the rest
#   raise Python's own "unsupported operand type(s) for +" TypeError
# compare: exact
# visibility: public
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x.grad == None, x.grad != None, None == x, x == "a", "a" != x)
if x.grad == None:
    print("no gradient yet")
cases = [
    ("x + None", lambda: x + None), ("None + x", lambda: None + x),
    ("x - 's'", lambda: x - "s"), ("'s' - x", lambda: "s" - x),
    ("x * None", lambda: x * None), ("x * 's'", lambda: x * "s"),
    ("'ab' * t", lambda: "ab" * torch.tensor(2)), ("'ab' * x", lambda: "ab" * x),
    ("x / None", lambda: x / None), ("None / x", lambda: None / x),
    ("x // 's'", lambda: x // "s"), ("x % None", lambda: x % None),
    ("'%s' % x", lambda: "%s" % x), ("x ** None", lambda: x ** None),
    ("None ** x", lambda: None ** x), ("x & None", lambda: x > 1 & None),
    ("x < None", lambda: x < None), ("'s' >= x", lambda: "s" >= x),
    ("x @ None", lambda: x @ None),
]
for label, f in cases:
    try:
        print(label, f())
    except TypeError as e:
        print(label, "TypeError", e)
y = torch.ones(2)
for label in ["+=", "-=", "*=", "/=", "//=", "%="]:
    try:
        if label == "+=":
            y += None
        elif label == "-=":
            y -= "s"
        elif label == "*=":
            y *= None
        elif label == "/=":
            y /= "s"
        elif label == "//=":
            y //= None
        else:
            y %= None
    except TypeError as e:
        print(label, e)
print(y)
loss = (x * 2).sum()
loss + None
