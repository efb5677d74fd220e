# source: original
# topic: python
# compare: exact
# visibility: public
# A program's own classes with comparison and arithmetic methods (sorted, ==, sets, a small
# Value class), and format fields that index or read attributes ("{0[0]}", "{0.shape}").
import torch


class Point:
    def __init__(self, x):
        self.x = x

    def __eq__(self, other):
        return isinstance(other, Point) and self.x == other.x

    def __lt__(self, other):
        return self.x < other.x

    def __hash__(self):
        return hash(self.x)

    def __repr__(self):
        return f"Point({self.x})"


class Value:
    def __init__(self, data):
        self.data = data

    def __add__(self, other):
        return Value(self.data + (other.data if isinstance(other, Value) else other))

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        return Value(self.data * (other.data if isinstance(other, Value) else other))

    def __neg__(self):
        return self * -1

    def __repr__(self):
        return f"Value(data={self.data})"


ps = [Point(3), Point(1), Point(2)]
print(sorted(ps), Point(1) == Point(1), Point(1) != Point(2), len({Point(1), Point(1)}))
print(max(ps), min(ps), Point(2) in ps)
print(Value(2) * 3 + 1, 1 + Value(2), -Value(4), sum([Value(1), Value(2)]))

xs = [10, 20]
print("{0[0]} and {0[1]}".format(xs))
print("{d[k]} {d[k]:>4}".format(d={"k": 5}))
t = torch.ones(2, 3)
print("{0.shape} {0.dtype} {1[0]:.2f}".format(t, [0.5]))
print("{p.x}".format(p=Point(7)))
