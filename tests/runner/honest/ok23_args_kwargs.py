def f(a, b=2, *args, scale=1, **kwargs):
    return (a + b + sum(args)) * scale, sorted(kwargs)


def g(*, only):
    return only


print(f(1), f(1, 2, 3, 4, scale=2, z=1, y=2), f(*[1, 1], **{"scale": 3}), g(only=5))
h = lambda *a, **k: (a, k)
print(h(1, x=2))
