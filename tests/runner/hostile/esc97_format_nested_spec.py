# expect: refused
# goal: traversal inside a nested format spec of str.format
print('{0:{1.__class__}}'.format(1, 2), 'PWNED')
