# expect: exception
# goal: torch.func's implementation modules reach the engine's internals
import torch.func as tf
levels = tf.reverse
print(levels, 'PWNED')
