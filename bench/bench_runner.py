"""Runner overhead per request: submit-to-result through a warm WorkerPool vs the bare engine.

    python bench/bench_runner.py [N]

Prints medians for an empty program (pure sandbox cost: fork, OS layers, policy, pipes), a
seed snippet untraced and traced, and the same snippet exec'd directly on the engine.
Not a test: numbers depend on the machine.
"""
import statistics
import sys
import time

SEED = """\
import torch
x = torch.tensor([-1.0, -0.1, -0.05], requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
v = torch.tensor([0.5, 0.5, 0.5])
y.backward(v)
print(x.grad)
"""


def median_ms(fn, n):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(n=30):
    from gradstep.runner import WorkerPool
    from gradstep import engine
    with WorkerPool(size=1) as pool:
        pool.run("pass\n", trace=False)
        rows = {
            "empty program, untraced": median_ms(lambda: pool.run("pass\n", trace=False), n),
            "seed snippet, untraced": median_ms(lambda: pool.run(SEED, trace=False), n),
            "seed snippet, traced": median_ms(lambda: pool.run(SEED, trace=True), n),
            "pool.ping round trip": median_ms(pool.ping, n),
        }
    sys.modules.setdefault("torch", engine)
    code = compile(SEED, "seed.py", "exec")

    def bare():
        import contextlib
        import io
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, {"torch": engine, "__name__": "__main__"})
    rows["seed snippet, bare engine (no sandbox)"] = median_ms(bare, n)
    for name, ms in rows.items():
        print(f"{name:40s} {ms:8.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
