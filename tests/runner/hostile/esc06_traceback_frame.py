# expect: refused
# goal: an exception's traceback leads to frames
try:
    1 / 0
except Exception as e:
    print('PWNED', e.__traceback__.tb_frame.f_globals)
