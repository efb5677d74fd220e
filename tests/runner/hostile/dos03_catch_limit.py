# expect: limit
# goal: catch the limit and go on
try:
    while True:
        pass
except Exception:
    print('PWNED')
