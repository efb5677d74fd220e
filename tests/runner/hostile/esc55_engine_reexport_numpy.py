# expect: refused,exception
# goal: a module the engine imported, reached as an attribute
import torch
torch.np.f2py.os.system('touch @MARKER@')
