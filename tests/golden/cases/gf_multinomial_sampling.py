# source: original
# topic: training
# compare: exact
# visibility: public
# torch.multinomial draws PyTorch's indices for a seed (one sample or no replacement: argmax
# or topk of p / Exp(1) draws; with replacement: a binary search of 53-bit uniforms in the
# cumulative sums), Tensor.exponential_ likewise; and reductions take numpy's axis= and
# keepdims= spellings. A makemore-style bigram model trains and samples as in PyTorch.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
w = torch.tensor([0.1, 0.2, 0.7])
print(torch.multinomial(w, 5, replacement=True))
print(torch.multinomial(w, 2), torch.multinomial(w, 3), torch.multinomial(w, 1))
rows = torch.tensor([[0.5, 0.5], [0.9, 0.1]])
print(torch.multinomial(rows, 3, replacement=True), torch.multinomial(rows, 1))
print(torch.multinomial(torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64), 6,
                        replacement=True))
print(w.multinomial(4, replacement=True))
print(torch.empty(4).exponential_(2.0), torch.empty(2, dtype=torch.float64).exponential_())
print(torch.rand(2))
for args in [(torch.tensor([0.5, -0.1]), 1), (torch.zeros(3), 1), (w, 4),
             (torch.tensor([1, 2]), 1)]:
    try:
        torch.multinomial(*args)
    except RuntimeError as e:
        print(e)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(x.sum(1, keepdims=True), torch.sum(x, axis=0), x.mean(axis=1, keepdims=True))
print(x.max(axis=1), torch.argmax(x, axis=1), x.std(axis=0), x.logsumexp(axis=1))

g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
xs = torch.tensor([0, 5, 13, 13, 1])
ys = torch.tensor([5, 13, 13, 1, 0])
for k in range(3):
    logits = F.one_hot(xs, num_classes=27).float() @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(5), ys].log().mean() + 0.01 * (W ** 2).mean()
    print(loss.item())
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
ix, out = 0, []
while True:
    p = F.softmax(F.one_hot(torch.tensor([ix]), num_classes=27).float() @ W, dim=1)
    ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
    out.append(ix)
    if ix == 0 or len(out) > 10:
        break
print(out)
p = torch.rand(27, generator=g)
print(torch.multinomial(p / p.sum(), num_samples=12, replacement=True, generator=g))
