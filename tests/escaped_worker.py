"""A zygote whose programs get privileged helpers the policy never gives them, for tests.

`probe(marker)` searches every object the collector tracks, and every frame, of the process
running the program for `marker`; `forge(kind, payload)` writes one raw frame on the run's
result pipe and exits; `forge_trace(text)` sends a valid trace of another program as its
own. They stand for a program that escaped the language layers.
"""
import subprocess
import sys

from gradstep.runner.sandbox import Zygote

_HELPER = r'''
import gc, os, sys
from gradstep.runner import guards, protocol, zygote

def search(marker):
    """Every place in this process's objects and frames that holds `marker`."""
    wanted, raw, hits = marker, marker.encode(), []
    def holds(value):
        if value is wanted or value is raw:
            return False
        if isinstance(value, str):
            return wanted in value
        if isinstance(value, (bytes, bytearray, memoryview)):
            return raw in bytes(value)
        return False
    for obj in gc.get_objects():
        for ref in gc.get_referents(obj):
            if holds(ref):
                hits.append(type(obj).__name__)
    frame = sys._getframe()
    while frame is not None:
        hits += [f"{frame.f_code.co_name}.{k}" for k, v in frame.f_locals.items() if holds(v)]
        frame = frame.f_back
    return sorted(set(hits))

def forge(frame_kind, payload):
    protocol.write_frame(3, frame_kind.encode(), payload.encode())
    os._exit(0)

def forge_trace(trace_text):
    """Send `trace_text` (a valid trace of another program) as this run's trace."""
    import json, linecache
    trace = json.loads(trace_text)
    trace["program"]["source"] = "".join(linecache.cache["main.py"][2])
    forge("r", json.dumps({"exit_code": 0, "error": None, "trace": trace}))

plain = guards.Sandbox.globals
def with_helpers(self):
    g = plain(self)
    g["__builtins__"] = {**g["__builtins__"], "probe": search, "forge": forge,
                                         "forge_trace": forge_trace}
    return g
guards.Sandbox.globals = with_helpers
sys.exit(zygote.main())
'''


class HelperZygote(Zygote):
    """A zygote started with the privileged helpers above (tests only)."""

    def __init__(self):
        original = subprocess.Popen

        def popen(args, **kwargs):
            return original([sys.executable, "-c", _HELPER], **kwargs)
        subprocess.Popen = popen
        try:
            super().__init__()
        finally:
            subprocess.Popen = original
