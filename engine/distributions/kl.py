"""KL(p ‖ q) between two distributions (`torch.distributions.kl_divergence`), by the formula
registered for their pair of types (`register_kl`): each distribution here with its own kind,
as PyTorch writes each."""
from __future__ import annotations

import math

from ..nn.functional import softplus
from .normal import Normal
from .uniform import Uniform
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution, ExponentialFamily
from .exponential import Exponential
from .independent import Independent, sum_rightmost
from .laplace import Laplace

__all__ = ["kl_divergence", "register_kl"]

_KL_REGISTRY: dict[tuple[type, type], object] = {}


def register_kl(type_p, type_q):
    """Decorator: `fun(p, q)` computes KL(p ‖ q) for p a `type_p` and q a `type_q`."""
    for t in (type_p, type_q):
        if not (isinstance(t, type) and issubclass(t, Distribution)):
            raise TypeError(f"Expected type_p to be a Distribution subclass but got {t}"
                            if t is type_p else
                            f"Expected type_q to be a Distribution subclass but got {t}")

    def decorator(fun):
        _KL_REGISTRY[type_p, type_q] = fun
        return fun
    return decorator


def kl_divergence(p: Distribution, q: Distribution):
    """KL(p ‖ q), batched over the distributions' batch shape; the most specific pair of
    registered types (along each class's method resolution order) decides the formula."""
    for super_p in type(p).__mro__:
        for super_q in type(q).__mro__:
            fun = _KL_REGISTRY.get((super_p, super_q))
            if fun is not None:
                return fun(p, q)
    raise NotImplementedError(f"No KL(p || q) is implemented for p type {p.__class__.__name__} "
                              f"and q type {q.__class__.__name__}")


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    if type(p) is not type(q):
        raise NotImplementedError("The cross KL-divergence between different exponential "
                                  "families cannot                             be computed "
                                  "using Bregman divergences")
    # (each family here has a formula of its own, registered below, which comes first)
    raise NotImplementedError(f"No KL(p || q) is implemented for p type {type(p).__name__} "
                              f"and q type {type(q).__name__}")


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    rate_ratio = q.rate / p.rate
    t1 = -rate_ratio.log()
    return t1 + rate_ratio - 1


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * (-loc_abs_diff / p.scale).exp()
    return t1 + t2 + t3 - 1


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    result[(q.low > p.low) | (q.high < p.high)] = math.inf
    return result


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t[(q.probs == 0).expand_as(t)] = math.inf
    t[(p.probs == 0).expand_as(t)] = 0
    return t.sum(-1)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t1[q.probs == 0] = math.inf
    t1[p.probs == 0] = 0
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t2[q.probs == 1] = math.inf
    t2[p.probs == 1] = 0
    return t1 + t2
