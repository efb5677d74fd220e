squares = [i * i for i in range(6) if i % 2 == 0]
table = {k: v for k, v in zip("abc", range(3))}
uniq = {c for c in "hello"}
total = sum(x for x in range(10))
pairs = sorted([(3, "c"), (1, "a"), (2, "b")], key=lambda p: -p[0])
names = [f"{i}:{n}" for i, n in enumerate(["x", "y"], start=1)]
if (n := len(squares)) > 2:
    print("walrus", n)
print(squares, table, sorted(uniq), total, pairs, names)
print(list(map(lambda v: v + 1, [1, 2])), list(filter(None, [0, 1, 2])), any([]), all([]))
print(list(reversed(range(3))), divmod(7, 2), pow(2, 10), round(2.675, 2), abs(-3))
