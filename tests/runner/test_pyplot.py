"""matplotlib.pyplot in the sandbox (runner/pyplot.py): the plotting calls of a training
tutorial run, their data reaches the trace's `series.plotted`, and a call gradstep does not
draw warns and lets the program go on."""
from gradstep.runner.trace import validate

LOOP = """\
import torch
import matplotlib.pyplot as plt

w = torch.tensor(0.0, requires_grad=True)
losses, tensors = [], []
for step in range(6):
    loss = (w - 3) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad.zero_()
    losses.append(loss.item())
    tensors.append(loss.detach())
plt.figure(figsize=(4, 3))
plt.plot(losses, label="train")
plt.plot(range(1, 7), torch.stack(tensors) / 2, "r--", label="half")
plt.xlabel("step")
plt.ylabel("loss")
plt.title("Training loss")
plt.legend()
plt.grid(True)
plt.show()
print("done", round(losses[-1], 3))
"""


def test_a_training_plot_runs_and_its_data_reaches_the_trace(pool):
    result = pool.run(LOOP, trace=True)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "done 0.966\n"
    assert validate(result.trace) is None
    (figure,) = result.trace["series"]["plotted"]
    assert (figure["title"], figure["xlabel"], figure["ylabel"]) == ("Training loss", "step",
                                                                      "loss")
    train, half = figure["lines"]
    assert train["label"] == "train" and [x for x, _ in train["rows"]] == list(range(6))
    assert train["rows"][0] == [0, 9.0]
    assert half["label"] == "half" and half["rows"][0] == [1, 4.5]


def test_a_call_gradstep_does_not_draw_warns_and_the_program_goes_on(pool):
    source = ("import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
              "plt.hist([1, 2, 2])\nplt.savefig('loss.png')\nprint('after')\n")
    result = pool.run(source, trace=True)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "after\n"
    assert "main.py:4: UserWarning: gradstep does not draw plt.hist(); the program goes on" \
        in result.stderr
    assert "gradstep does not draw plt.savefig()" in result.stderr
    assert "plotted" not in result.trace["series"]


def test_mismatched_lengths_fail_in_matplotlibs_words(pool):
    result = pool.run("import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [1, 2])\n")
    assert result.exit_code == 1
    assert result.error["type"] == "ValueError"
    assert result.error["message"] == ("x and y must have same first dimension, but have "
                                       "shapes (3,) and (2,)")
    assert result.error["line"] == 2


def test_a_name_pyplot_lacks_is_an_attribute_error_and_internals_stay_hidden(pool):
    for name in ("state", "begin", "warnings", "np"):
        result = pool.run(f"import matplotlib.pyplot as plt\nplt.{name}\n")
        assert result.exit_code == 1
        assert result.error["type"] == "AttributeError", (name, result.error)


def test_figures_do_not_leak_from_one_run_into_the_next(pool):
    pool.run("import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\n", trace=True)
    result = pool.run("import matplotlib.pyplot as plt\nprint(1)\n", trace=True)
    assert "plotted" not in result.trace["series"]
