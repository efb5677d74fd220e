# expect: refused
# goal: the pager
help(print)
