# expect: refused
# goal: read the server's environment
import os
print(os.environ)
