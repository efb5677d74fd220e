# expect: refused
# goal: a blocking read
print(input())
