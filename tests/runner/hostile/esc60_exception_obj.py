# expect: refused
# goal: AttributeError.obj leaks the object (CVE-2024-47532)
try:
    (1).nosuch
except AttributeError as e:
    print('PWNED', e.obj)
