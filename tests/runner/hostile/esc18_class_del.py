# expect: refused
# goal: __del__ runs later, outside the program
class A:
    def __del__(self):
        open('@MARKER@', 'w')
a = A()
