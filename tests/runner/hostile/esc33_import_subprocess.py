# expect: refused
# goal: import subprocess
import subprocess
subprocess.run(['touch', '@MARKER@'])
