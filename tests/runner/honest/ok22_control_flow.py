n, steps = 27, 0
while n != 1:
    n = n // 2 if n % 2 == 0 else 3 * n + 1
    steps += 1
    if steps > 1000:
        break
for i in range(10):
    if i % 3:
        continue
    assert i % 3 == 0, "never"
items = [1, 2, 3]
del items[0]
x = 1
del x
print(steps, items, 5 if steps else 6, not steps, 1 < 2 < 3, 2 in items)
