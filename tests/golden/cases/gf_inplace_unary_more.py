# source: original
# topic: more in-place methods and their torch spellings: trunc_ / fix_ / ceil_ / round_ /
#   sign_ / sgn_, exp2_ / expm1_ / log2_ / log10_ / log1p_ / rsqrt_ / erf_, tan_ / sinh_ /
#   cosh_ / asin_ / atan_ / acos_, deg2rad_ / rad2deg_ / sinc_ / frac_ / logit_ /
#   nan_to_num_, hypot_ / copysign_: the out-of-place grad_fns, version bumps, errors
# compare: exact
# visibility: public
import torch
x = torch.tensor([0.25, 0.5, 0.75], requires_grad=True)
methods = [("trunc_", lambda t: t.trunc_()), ("fix_", lambda t: t.fix_()),
           ("ceil_", lambda t: t.ceil_()), ("round_", lambda t: t.round_()),
           ("round_(1)", lambda t: t.round_(decimals=1)), ("sign_", lambda t: t.sign_()),
           ("sgn_", lambda t: t.sgn_()), ("exp2_", lambda t: t.exp2_()),
           ("expm1_", lambda t: t.expm1_()), ("log2_", lambda t: t.log2_()),
           ("log10_", lambda t: t.log10_()), ("log1p_", lambda t: t.log1p_()),
           ("rsqrt_", lambda t: t.rsqrt_()), ("erf_", lambda t: t.erf_()),
           ("tan_", lambda t: t.tan_()), ("sinh_", lambda t: t.sinh_()),
           ("cosh_", lambda t: t.cosh_()), ("asin_", lambda t: t.asin_()),
           ("atan_", lambda t: t.atan_()), ("acos_", lambda t: t.acos_()),
           ("deg2rad_", lambda t: t.deg2rad_()), ("rad2deg_", lambda t: t.rad2deg_()),
           ("sinc_", lambda t: t.sinc_()), ("frac_", lambda t: t.frac_()),
           ("logit_", lambda t: t.logit_()), ("logit_(0.3)", lambda t: t.logit_(0.3)),
           ("nan_to_num_", lambda t: t.nan_to_num_(posinf=1.0)),
           ("hypot_", lambda t: t.hypot_(torch.tensor([1.0, 2.0, 0.5]))),
           ("copysign_", lambda t: t.copysign_(torch.tensor([-1.0, 2.0, -0.0]))),
           ("copysign_(-1)", lambda t: t.copysign_(-1))]
for name, f in methods:
    x.grad = None
    h = x * 1
    y = f(h)
    y.sum().backward()
    print(name, y is h, h._version, y, x.grad)
torch_fns = [torch.trunc_, torch.fix_, torch.ceil_, torch.round_, torch.exp2_, torch.expm1_,
             torch.log2_, torch.log10_, torch.log1p_, torch.rsqrt_, torch.erf_, torch.tan_,
             torch.sinh_, torch.cosh_, torch.asin_, torch.atan_, torch.acos_, torch.deg2rad_,
             torch.rad2deg_, torch.sinc_, torch.frac_, torch.logit_, torch.nan_to_num_]
for f in torch_fns:
    h = x * 1
    print(f.__name__, f(h) is h, h)
print(torch.logit_(x * 1, 0.4), torch.round_(x * 10, decimals=-1),
      torch.nan_to_num_(torch.tensor([float("nan"), float("inf")]), 1.0, 2.0))
for f in [lambda: x.tan_(), lambda: torch.tensor([1, 2]).frac_(),
          lambda: torch.tensor([1, 2]).round_(decimals=1), lambda: torch.tensor([1, 2]).exp2_(),
          lambda: torch.sinc_(1.0), lambda: (x * 1).hypot_(2.0),
          lambda: (x * 1).copysign_([1.0])]:
    try:
        f()
    except (RuntimeError, TypeError, NotImplementedError) as e:
        print(type(e).__name__, e)
for f in [lambda: torch.copysign(x, [1.0]), lambda: x.copysign("x"),
          lambda: torch.copysign(1.0, x), lambda: (x * 1).copysign_(None)]:
    try:
        f()
    except TypeError as e:
        print(type(e).__name__, e)
