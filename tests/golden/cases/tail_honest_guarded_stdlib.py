# source: original
# topic: python
# compare: exact
# visibility: public
# The standard-library helpers that take names or classes, used as tutorials use them on the
# program's own functions and classes: functools.wraps and total_ordering, dataclasses with
# replace, the enum functional API, abc.abstractmethod.
import abc
import dataclasses
import enum
import functools

import torch


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


@timed
def loss_of(x):
    """Mean squared value."""
    return (x ** 2).mean()


print(loss_of.__name__, loss_of(torch.tensor([1.0, 3.0])))


def relu_like(x):
    return x


functools.update_wrapper(relu_like, torch.relu)
print(relu_like.__name__)


@functools.total_ordering
class Version:
    def __init__(self, n):
        self.n = n

    def __eq__(self, other):
        return self.n == other.n

    def __lt__(self, other):
        return self.n < other.n


print(Version(1) <= Version(2), Version(3) >= Version(2), Version(2) > Version(1))


@dataclasses.dataclass
class Config:
    lr: float = 0.1
    epochs: int = 3
    tags: list = dataclasses.field(default_factory=list)


c = Config(epochs=5)
print(c, dataclasses.replace(c, lr=0.01), [f.name for f in dataclasses.fields(c)])
print(dataclasses.is_dataclass(c), Config() == Config())

Color = enum.Enum("Color", "RED GREEN BLUE")
Phase = enum.Enum("Phase", [("TRAIN", 1), ("EVAL", 2)])
Level = enum.IntEnum("Level", {"LOW": 1, "HIGH": 10})
print(Color.GREEN, Color(3), Phase["EVAL"].value, Level.HIGH + 1, list(Color))


class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self):
        pass


class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side ** 2


print(Square(3).area())
try:
    Shape()
except TypeError as e:
    print("TypeError:", e)
