"""`torch.utils.data`: Dataset, TensorDataset, Subset, random_split and a single-process
DataLoader, as training loops in tutorials use them.

Shuffling draws from the same generator as PyTorch in the same order (each pass over a loader
takes a base seed, then RandomSampler seeds its own generator with a second draw), so a seeded
program sees PyTorch's batches and its later `torch.randn` values too. Batches are put together
by `default_collate` (tensors stacked, numbers made tensors, tuples turned into lists).
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from .. import dtypes, factories
from .._names import TorchNamed
from ..generator import Generator
from ..ops.join import stack
from ..tensor import Tensor

_COLLATE_ERROR = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or "
                  "lists; found {}")


class _Named(metaclass=TorchNamed):
    """Prints as `<torch.utils.data.… object at 0x…>`, like PyTorch's classes."""

    def __repr__(self) -> str:
        return f"<{type(self)._torch_name} object at {hex(id(self))}>"


class Dataset(_Named):
    """Base for map-style datasets: subclasses give `__getitem__(i)` (and usually `__len__`).

    Example:
        >>> class Squares(Dataset):
        ...     def __len__(self): return 3
        ...     def __getitem__(self, i): return i * i
        >>> [Squares()[i] for i in range(3)]
        [0, 1, 4]
    """

    _torch_name = "torch.utils.data.dataset.Dataset"

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    """Sample i is `tuple(t[i] for t in tensors)`; every tensor has the same first size."""

    _torch_name = "torch.utils.data.dataset.TensorDataset"

    def __init__(self, *tensors: Tensor) -> None:
        if not all(tensors[0].size(0) == t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order."""

    _torch_name = "torch.utils.data.dataset.Subset"

    def __init__(self, dataset, indices) -> None:
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset, lengths, generator=None) -> list:
    """Split into non-overlapping Subsets of the given lengths (or fractions summing to 1),
    after a `randperm` of the whole dataset drawn from `generator`.

    Example:
        >>> import gradstep.engine as torch
        >>> a, b = random_split(range(5), [3, 2], generator=torch.Generator().manual_seed(0))
        >>> sorted(a.indices + b.indices)
        [0, 1, 2, 3, 4]
    """
    n = len(dataset)
    lengths = list(lengths)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = [int(math.floor(n * frac)) for frac in lengths]
        for i in range(n - sum(counts)):        # the remainder, one each, round robin
            counts[i % len(counts)] += 1
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = factories.randperm(n, generator=generator).tolist()
    out, start = [], 0
    for length in lengths:
        out.append(Subset(dataset, order[start:start + length]))
        start += length
    return out


def _random_int64(generator) -> int:
    """`torch.empty((), dtype=torch.int64).random_(generator=g).item()`: a 64-bit word mod 2**63."""
    gen = generator if generator is not None else factories.default_generator
    return int(gen.random64(1)[0]) % (1 << 63)


class SequentialSampler(_Named):
    """Indices 0, 1, …, len(data_source) - 1."""

    _torch_name = "torch.utils.data.sampler.SequentialSampler"

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(_Named):
    """A fresh permutation per pass; without a generator, one seeded from the global one."""

    _torch_name = "torch.utils.data.sampler.RandomSampler"

    def __init__(self, data_source, replacement: bool = False, num_samples=None,
                 generator=None) -> None:
        if replacement or num_samples is not None:
            raise NotImplementedError("RandomSampler(replacement=True or num_samples=...) is "
                                      "not supported by gradstep")
        self.data_source, self.generator = data_source, generator

    def __iter__(self):
        n = len(self.data_source)
        gen = self.generator
        if gen is None:
            gen = Generator().manual_seed(_random_int64(None))
        yield from factories.randperm(n, generator=gen).tolist()

    def __len__(self) -> int:
        return len(self.data_source)


class DataLoader(_Named):
    """Batches of a dataset: `batch_size` samples (the last one shorter unless `drop_last`),
    in order or shuffled, joined by `collate_fn`. Workers are not used (one process).

    Example:
        >>> import gradstep.engine as torch
        >>> ds = TensorDataset(torch.arange(5.), torch.arange(5))
        >>> [y.tolist() for _, y in DataLoader(ds, batch_size=2)]
        [[0, 1], [2, 3], [4]]
    """

    _torch_name = "torch.utils.data.dataloader.DataLoader"

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers: int = 0, collate_fn=None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn=None,
                 generator=None, **kwargs) -> None:
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            raise NotImplementedError("DataLoader(batch_sampler=...) is not supported by "
                                      "gradstep")
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.num_workers, self.generator = num_workers, generator
        if sampler is None:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        self.sampler = sampler
        self.collate_fn = collate_fn or (default_collate if batch_size is not None
                                         else default_convert)

    def __iter__(self):
        # PyTorch's iterator draws a base seed for workers first, even with none of them
        _random_int64(self.generator)
        return self._batches()

    def _batches(self):
        if self.batch_size is None:
            for i in self.sampler:
                yield self.collate_fn(self.dataset[i])
            return
        batch = []
        for i in self.sampler:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield self.collate_fn([self.dataset[j] for j in batch])
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn([self.dataset[j] for j in batch])

    def __len__(self) -> int:
        n = len(self.sampler)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


def default_collate(batch: list):
    """Join a list of samples into a batch, recursing into tuples, lists and dicts."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if isinstance(elem, bool) or isinstance(elem, int):
        return factories.tensor(batch)
    if isinstance(elem, float):
        return factories.tensor(batch, dtype=dtypes.float64)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, Sequence):
        if any(len(e) != len(elem) for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(samples)) for samples in zip(*batch)]
    if type(elem).__module__ == "numpy":      # arrays and numpy scalars become tensors
        return default_collate([factories.as_tensor(e) for e in batch])
    raise TypeError(_COLLATE_ERROR.format(type(elem)))


def default_convert(data):
    """What batch_size=None hands back: samples as they are, tuples as lists."""
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    return data


__all__ = ["Dataset", "TensorDataset", "Subset", "random_split", "DataLoader", "SequentialSampler",
           "RandomSampler", "default_collate"]
