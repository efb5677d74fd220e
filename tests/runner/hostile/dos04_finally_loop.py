# expect: limit
# goal: keep spinning in finally
try:
    while True:
        pass
finally:
    while True:
        pass
