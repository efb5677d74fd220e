# title_en: backward(v) on a vector output
# title_zh: 对向量输出调用 backward(v)
# description: A loop keeps doubling y; backward(v) returns the vector-Jacobian product v·J.
import torch
#x = torch.randn(3, requires_grad=True)
x = torch.tensor([-1.0, -0.1, -0.05],requires_grad=True)
print(x)
y = x * 2
index = 0
while y.data.norm() < 1000:
    y = y * 2
    index = index + 1
print(y)     #tensor([-1024.0000,  -102.4000,   -51.2000], grad_fn=<MulBackward0>)
print(index) #9
 
# Now in this case y is no longer a scalar. torch.autograd could not compute the full 
# Jacobian directly, but if we just want the Jacobian-vector product, simply pass the
# vector to backward as argument:
v = torch.tensor([1, 1, 1], dtype=torch.float)
v = torch.tensor([0.5,0.5,0.5], dtype=torch.float)
#v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
