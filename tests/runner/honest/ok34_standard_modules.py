# the standard modules a program may import, each used as an exercise would
import itertools, functools, operator, string, statistics, time, warnings, re
from typing import Generic, List, Optional, TypeVar
from dataclasses import dataclass, field
from enum import Enum, auto
from abc import ABC, abstractmethod

print(list(itertools.product([1, 2], "ab")), list(itertools.accumulate([1, 2, 3])))
print(list(itertools.chain.from_iterable([[1], [2, 3]])))
print(functools.reduce(operator.mul, [1, 2, 3, 4]), sorted([(2, "b"), (1, "a")], key=operator.itemgetter(0)))
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(30), string.ascii_lowercase[:5], string.capwords("hello world"))
print(statistics.mean([1, 2, 3, 4]), statistics.median([3, 1, 2]), round(statistics.stdev([1.0, 2.0, 4.0]), 4))
t0 = time.perf_counter(); print(time.perf_counter() >= t0)
warnings.warn("careful", UserWarning)
m = re.match(r"(\w+)-(\d+)", "epoch-12")
print(m.group(1), int(m.group(2)), re.findall(r"\d", "a1b2"), re.sub("a", "b", "aaa"))
@dataclass
class Point:
    x: float
    y: float = 0.0
    tags: List[str] = field(default_factory=list)
print(Point(1.5), Point(1, 2) == Point(1, 2))
class Color(Enum):
    RED = auto()
    GREEN = auto()
print(Color.RED, Color.GREEN.value, Color["RED"].name, list(Color))
class Shape(ABC):
    @abstractmethod
    def area(self):
        pass
class Square(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s ** 2
print(Square(3).area())
def first(xs: List[int]) -> Optional[int]:
    return xs[0] if xs else None
print(first([4]), getattr(Square(2), "are" + "a")(), hasattr(Color.RED, "na" + "me"))
name = "s"
sq = Square(5)
setattr(sq, name, 6)
print(sq.area())
T = TypeVar("T")
class Box(Generic[T]):
    def __init__(self, item: T):
        self.item = item
print(Box(3).item, Box[str]("s").item)
