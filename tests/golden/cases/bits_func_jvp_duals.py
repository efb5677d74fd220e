# source: original
# topic: torch.func.jvp and jacfwd run on dual numbers: softmax, log_softmax, tanh, sigmoid,
#   relu, matmul, pow, exp/sum, mean/std, indexing and views to the last bit; jvp of grad
#   and hessian (forward over reverse); has_aux and several primals; outputs that are not
#   tensors, integer primals, outputs without a tangent, in-place ops and detach inside;
#   inputs that require grad (the primal output comes back as an alias)
# compare: exact
# visibility: public
import torch
import torch.nn.functional as F
from torch.func import grad, hessian, jacfwd, jvp

x = torch.tensor([0.3, -1.2, 2.5, 0.7])
v = torch.tensor([1.0, 0.5, -0.25, 2.0])
W = torch.tensor([[0.5, -1.0, 0.25, 2.0], [1.5, 0.1, -0.3, 0.7]])
print(jvp(lambda a: torch.softmax(a, 0), (x,), (v,))[1].tolist())
print(jacfwd(lambda a: torch.softmax(a, 0))(x).tolist())
print(jacfwd(lambda a: torch.log_softmax(a, 0))(x).tolist())
print(jacfwd(lambda a: F.softmax(W @ a, dim=0))(x).tolist())
print(jacfwd(lambda a: (W @ a).log_softmax(0))(x).tolist())
print(jvp(lambda a: torch.tanh(a) * a.sigmoid(), (x,), (v,))[1].tolist())
print(jvp(lambda a: (a ** 3).sum(), (x,), (v,))[1].tolist())
print(jacfwd(lambda a: a.exp() / a.exp().sum())(x).tolist())
print(jacfwd(lambda a: torch.relu(W @ a))(x).tolist())
print(jvp(lambda a: a.mean() * a.std(), (x,), (v,))[1].tolist())
print(jacfwd(lambda a: a[1:3] * a.view(2, 2).sum(0))(x).tolist())
print(jvp(lambda a: a.log().exp().pow(2), (x.abs(),), (v,))[1].tolist())
print(hessian(lambda a: (a.sin() * a).sum())(x).tolist())
print(jvp(grad(lambda a: (a.sin() * a ** 2).sum()), (x,), (v,))[1].tolist())
out, tangent, aux = jvp(lambda a, b: ((a @ b).softmax(0), a.sum()), (W, x), (W * 0.5, v),
                        has_aux=True)
print(out, tangent, aux)
print(jacfwd(lambda a, b: (a * b).softmax(0), argnums=(0, 1))(x, v))
for fn in (lambda: jvp(lambda a: (a * 2, a.sum().item()), (x,), (v,)),
           lambda: jvp(lambda a: a * 2, (torch.tensor([1, 2]),), (torch.ones(2),)),
           lambda: jacfwd(lambda a: (a, 3))(x)):
    try:
        fn()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
print(jvp(lambda a: a.argmax(), (x,), (v,)), jvp(lambda a: torch.ones(3), (x,), (v,)))
print(jvp(lambda a: a.clone().mul_(a), (x,), (v,)), jvp(lambda a: a.detach() * a, (x,), (v,)))
xr = torch.tensor([0.5, 1.5], requires_grad=True)
print(jvp(torch.exp, (xr,), (v[:2],)))
print(jvp(lambda a: (a * 2, a.sum()), (xr,), (v[:2],)))
print(jacfwd(torch.sin)(xr))
