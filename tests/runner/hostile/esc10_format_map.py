# expect: refused
# goal: format_map with traversal
print('{x.__class__}'.format_map({'x': 1}), 'PWNED')
