# expect: refused
# goal: getattr with a computed dunder name
print(getattr((), '__cla' + 'ss__'), 'PWNED')
