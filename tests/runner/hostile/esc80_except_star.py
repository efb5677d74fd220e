# expect: refused
# goal: except* type confusion (CVE-2025-22153)
try:
    pass
except* ValueError:
    pass
print('PWNED')
