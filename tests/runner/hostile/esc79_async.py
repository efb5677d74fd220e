# expect: refused
# goal: coroutines keep frames
async def g():
    return 1
print('PWNED', g().cr_frame)
