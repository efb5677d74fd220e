# expect: refused
# goal: pdb on the server's stdin
breakpoint()
