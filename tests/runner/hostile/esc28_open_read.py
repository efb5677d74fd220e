# expect: refused
# goal: read a secret file
print(open('@SECRET_FILE@').read())
