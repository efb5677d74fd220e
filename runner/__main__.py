"""`python -m gradstep.runner prog.py [--out trace.json]`: run a program in the sandbox (as
`gradstep run` does).

Without --out it prints the program's output like `gradstep run`; with --out it writes the
trace like `gradstep trace`.
"""
import argparse
import sys

from gradstep.runner.cli import run_file, trace_file


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gradstep.runner")
    parser.add_argument("file")
    parser.add_argument("--out", help="write the trace JSON here ('-' for stdout)")
    args = parser.parse_args(argv)
    if args.out:
        return trace_file(args.file, args.out)
    return run_file(args.file)


if __name__ == "__main__":
    sys.exit(main())
