"""The generator reproduces PyTorch 2.13's CPU random numbers (values recorded from PyTorch)."""
import numpy as np

import gradstep.engine as torch


def test_small_randn_pairs_and_keeps_the_spare():
    torch.manual_seed(0)
    assert torch.randn(3).tolist() == [1.5409960746765137, -0.293428897857666,
                                       -2.1787893772125244]
    torch.manual_seed(0)
    a, b = torch.randn(2), torch.randn(1)
    assert b.item() == -2.1787893772125244 and a.tolist()[1] == -0.293428897857666


def test_float64_randn():
    torch.manual_seed(0)
    assert torch.randn(3, dtype=torch.float64).tolist() == [
        1.5409961082440433, -0.2934289057609464, -2.1787893820745574]


def test_block_randn_from_16_elements():
    torch.manual_seed(0)
    got = torch.randn(20).tolist()[:4]
    want = [-1.1258398294448853, -1.152360200881958, -0.2505785822868347, -0.4338788092136383]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)


def test_uniform_integers_permutations():
    torch.manual_seed(0)
    assert torch.rand(3).tolist() == [0.49625658988952637, 0.7682217955589294,
                                      0.08847743272781372]
    torch.manual_seed(0)
    assert torch.randint(0, 10, (8,)).tolist() == [4, 9, 3, 0, 3, 9, 7, 3]
    assert torch.randperm(6).tolist() == [1, 4, 3, 5, 0, 2]


def test_explicit_generator_object():
    g = torch.Generator().manual_seed(5)
    assert torch.randn(2, generator=g).tolist() == [-0.4867807626724243, -0.6038215756416321]
    torch.manual_seed(0)
    assert torch.initial_seed() == 0
