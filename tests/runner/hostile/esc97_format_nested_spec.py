# expect: refused
# goal: traversal inside a nested format spec of str.format
print('{0:{1.__globals__}}'.format(1, print), 'PWNED')
