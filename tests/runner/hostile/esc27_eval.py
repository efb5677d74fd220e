# expect: refused
# goal: eval of a string
eval("__import__('os').system('touch @MARKER@')")
