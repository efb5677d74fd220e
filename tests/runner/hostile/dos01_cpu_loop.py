# expect: limit
# goal: spin forever
while True:
    pass
