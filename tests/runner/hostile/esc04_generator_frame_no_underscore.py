# expect: refused
# goal: gi_frame.f_back walks to host frames with no underscore at all
g = (x for x in [1])
f = g.gi_frame.f_back.f_back
print('PWNED', f.f_globals)
