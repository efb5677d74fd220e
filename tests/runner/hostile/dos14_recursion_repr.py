# expect: limit
# goal: a deeply nested list's repr
x = []
for i in range(100000):
    x = [x]
print(x)
