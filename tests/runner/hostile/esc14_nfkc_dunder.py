# expect: refused
# goal: fullwidth letters NFKC-normalise to __class__
print(().__ｃｌａｓｓ__, 'PWNED')
