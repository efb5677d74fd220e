"""Honest programs that used to be refused or reported unclearly, through the sandbox."""
import pytest


def test_a_byte_order_mark_is_accepted(pool):
    result = pool.run("\ufeffprint('bom')\n", trace=False)
    assert (result.stdout, result.error) == ("bom\n", None)


def test_numpy_lazily_imported_parts_work(pool):
    result = pool.run("import numpy as np\na = np.array([3.0, 1.0, 2.0, 1.0])\n"
                      "print(np.unique(a), np.median(a), np.percentile(a, 50))\n", trace=False)
    assert result.error is None, result.stderr
    assert result.stdout == "[1. 2. 3.] 1.5 1.5\n"


def test_bytes_is_a_builtin(pool):
    result = pool.run("print(bytes([104, 105]), bytes(2), bytes('é', 'utf-8'))\n", trace=False)
    assert result.stdout == "b'hi' b'\\x00\\x00' b'\\xc3\\xa9'\n"


@pytest.mark.parametrize("trace", [False, True])
def test_a_huge_exception_message_is_a_limit(pool, trace):
    result = pool.run("raise ValueError('x' * 30_000_000)\n", trace=trace)
    assert result.error["kind"] == "limit" and result.error["limit"] == "stdout"
    assert "ValueError" in result.error["message"] and "30000000 characters" in \
        result.error["message"]
    assert result.error["line"] == 1
    assert len(result.stderr) < 2000


def test_a_recursive_str_is_a_recursion_error(pool):
    source = ("class Loop(Exception):\n    def __str__(self):\n        return str(self)\n"
              "raise Loop()\n")
    result = pool.run(source, trace=True)
    assert result.error["type"] == "RecursionError"
    assert result.error["kind"] == "limit" and result.error["limit"] == "recursion_depth"
    assert result.stderr.strip().splitlines()[-1].startswith("RecursionError:")


def test_messages_never_show_the_install_path(pool):
    import sys
    result = pool.run("import numpy as np\nnp.zeros((2, 2)).reshape(3)\n", trace=False)
    assert result.error["type"] == "ValueError"
    assert sys.prefix not in result.stderr + result.error["message"]


def test_an_exception_in_a_print_formatter_is_shown(pool):
    source = ("import numpy as np\nnp.set_printoptions(formatter={'float': lambda v: 1 / 0})\n"
              "print(np.zeros(2))\nprint('after')\n")
    result = pool.run(source, trace=False)
    assert result.exit_code == 1 and result.error["type"] == "ZeroDivisionError"
    assert result.stdout == ""
    assert result.stderr.strip().endswith("ZeroDivisionError: division by zero")


def test_a_stop_iteration_in_a_print_formatter_is_not_swallowed(pool):
    source = ("import numpy as np\nit = iter([])\n"
              "np.set_printoptions(formatter={'float': lambda v: next(it)})\n"
              "print('before', np.zeros(2), 'after')\nprint('never')\n")
    result = pool.run(source, trace=False)
    assert result.exit_code == 1 and result.error["type"] == "StopIteration"
    assert result.stdout == ""
    assert result.stderr.strip().splitlines()[-1] == "StopIteration"
