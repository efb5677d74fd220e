# expect: refused
# goal: __import__ by name
__import__('os').system('touch @MARKER@')
