# expect: refused
# goal: subclasses of object -> os._wrap_close globals -> system
for c in ().__class__.__mro__[-1].__subclasses__():
    if c.__name__ == '_wrap_close':
        c.__init__.__globals__['system']('touch @MARKER@')
