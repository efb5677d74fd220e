# expect: refused
# goal: ctypes
import ctypes
ctypes.CDLL(None).system(b'touch @MARKER@')
