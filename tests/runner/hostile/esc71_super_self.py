# expect: refused
# goal: a super object's __self__
print(super(int, 1).__self__, 'PWNED')
