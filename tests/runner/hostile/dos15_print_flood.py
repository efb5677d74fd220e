# expect: limit
# goal: print forever
while True:
    print('spam' * 100)
