"""Layouts from many threads at once (the server's thread pool under load) must neither
crash the process nor mix up graphs: Graphviz's C library is not thread-safe, so the layout
service serialises its calls (NOTE [one Graphviz call at a time])."""
from concurrent.futures import ThreadPoolExecutor

from gradstep.app.services.layout import run_dot


# graphs declare different attributes, as a run's graph does depending on what it holds
EXTRA = ['penwidth="2"', 'fillcolor="#eeeeee"', 'fontsize="9"', 'tooltip="t"', 'color="red"',
         'peripheries="2"', 'style="dashed"']


def chain(n: int, tag: str) -> str:
    pick = lambda k: EXTRA[k % len(EXTRA)]  # noqa: E731
    nodes = "; ".join(f'{tag}{i} [label="{tag}{i}", shape=box, {pick(i + n)}]' for i in range(n))
    edges = "; ".join(f"{tag}{i} -> {tag}{i + 1} [{pick(i)}]" for i in range(n - 1))
    return f"digraph {{ graph [{pick(n)}]; {nodes}; {edges} }}"


def test_concurrent_layouts_each_get_their_own_graph():
    jobs = [(chain(20 + 9 * (i % 9), f"g{i}_"), f"g{i}_", 20 + 9 * (i % 9)) for i in range(40)]
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda job: (job, run_dot(job[0])), jobs))
    for (_source, tag, n), (svg, attrs) in results:
        assert sorted(attrs) == sorted(f"{tag}{i}" for i in range(n))
        assert all(name.startswith(tag) for name in attrs)
        assert svg.count("<g id=") >= n
