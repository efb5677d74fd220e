# expect: refused
# goal: class patterns do getattr in C without an Attribute node
match ():
    case tuple(__class__=c):
        print('PWNED', c)
