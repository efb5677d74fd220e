# expect: refused
# goal: importlib
import importlib
importlib.import_module('os').system('touch @MARKER@')
