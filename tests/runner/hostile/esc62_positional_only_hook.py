# expect: refused
# goal: a positional-only parameter shadows a guard hook (CVE-2026-55830)
def f(_sbx_ga, /):
    return 1
print('PWNED', f(1))
