xs = [1, 2, 3]
xs[0] += 9
d = {"a": 1}
d["a"] *= 5
count = 0


def bump():
    global count
    count += 1


def outer():
    total = 0

    def inner(k):
        nonlocal total
        total += k
    for k in range(4):
        inner(k)
    return total


bump()
bump()
print(xs, d, count, outer())
