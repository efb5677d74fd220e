"""Program material for the fuzzers and the load test: honest snippets and hostile ones.

The hostile list mixes refusals (imports, dunders, banned builtins, numpy file access) with
resource bombs small enough for a test's limits. Each one's goal is harmless to check: it
would create MARKER_DIR/pwned, print an environment secret, or import a module.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "tests" / "oracle" / "cases").glob("s00*_*.py"))

HONEST = [p.read_text(encoding="utf-8") for p in SEEDS]

HOSTILE = [
    "import os\nos.system('touch {marker}/pwned')\n",
    "open('{marker}/pwned', 'w').write('x')\n",
    "print(().__class__.__mro__[-1].__subclasses__())\n",
    "import numpy as np\nnp.save('{marker}/pwned', np.zeros(3))\n",
    "import torch\ntorch.ones(3).numpy().tofile('{marker}/pwned')\n",
    "import subprocess\nsubprocess.run(['touch', '{marker}/pwned'])\n",
    "print('{{0.__globals__}}'.format(print))\n",
    "exec(\"open('{marker}/pwned','w')\")\n",
    "g = (x for x in [1])\nprint(g.gi_frame.f_back)\n",
    "import torch\nprint(torch.tensor.__globals__)\n",
    "while True:\n    pass\n",
    "x = 'a' * (10 ** 10)\n",
    "def f():\n    return f()\nf()\n",
    "print('x' * 1000, end='')\nwhile True:\n    print('flood' * 100)\n",
    "import torch\nt = torch.ones(100000, 100000)\n",
]

# statement pieces the grammar fuzzer strings together: honest ones and a few hostile ones
PIECES = [
    "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)",
    "y = x * 2",
    "y = (x ** 2).sum()",
    "y.backward()",
    "y.backward(torch.ones(3))",
    "print(x.grad)",
    "x.grad = None",
    "with torch.no_grad():\n    z = x + 1",
    "z = x.detach()",
    "print(y)",
    "w = torch.zeros(2, 2)",
    "w[0] = 1.0",
    "q = torch.autograd.grad(y, x, retain_graph=True)",
    "for i in range(3):\n    y = y * 1.5",
    "print(type(y.grad_fn).__name__)",
    "import os",
    "__import__('os')",
    "x.__class__.__bases__",
    "open('/etc/passwd')",
    "lambda: 0",
    "raise ValueError('boom')",
    "del x",
    "print(undefined_name)",
    "1 / 0",
]
