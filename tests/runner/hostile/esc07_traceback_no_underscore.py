# expect: refused
# goal: with_traceback / tb_frame without dunders
try:
    1 / 0
except Exception as e:
    tb = e.with_traceback(None)
    print('PWNED', tb)
