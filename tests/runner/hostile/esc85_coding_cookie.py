# expect: exception
# goal: a utf-7 coding cookie must not re-decode the text
# -*- coding: utf_7 -*-
print(().+AF8AXw-class+AF8AXw-, 'PWNED')
