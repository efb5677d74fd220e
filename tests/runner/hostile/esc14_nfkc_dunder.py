# expect: refused
# goal: fullwidth letters NFKC-normalise to __class__.__base__
print(().__ｃｌａｓｓ__.__ｂａｓｅ__, 'PWNED')
