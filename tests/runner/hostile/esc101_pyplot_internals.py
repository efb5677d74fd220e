# expect: exception
# goal: the matplotlib stand-in leads to the runner's module state and its imports
import matplotlib.pyplot as plt
state = plt.state
print(state, 'PWNED')
