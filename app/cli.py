"""The `gradstep` command: serve the app, run or trace a program, render its graph.

Each subcommand imports its layer lazily, so `gradstep --help` stays instant and
`gradstep run` never loads the web stack.

Example:
    $ gradstep run examples/backward.py      # prints what `python backward.py` prints with PyTorch
    $ gradstep trace examples/backward.py -o trace.json
    $ gradstep render examples/backward.py -o graph.svg
    $ gradstep export examples/backward.py -o backward.html   # plays from file://, offline
    $ gradstep serve --port 8000
    $ gradstep lesson check my-lesson.toml   # what is wrong with a lesson file, line by line
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gradstep.app import __version__


def _cmd_run(args: argparse.Namespace) -> int:
    from gradstep.runner.cli import run_file
    return run_file(args.file)


def _cmd_trace(args: argparse.Namespace) -> int:
    from gradstep.runner.cli import trace_file
    return trace_file(args.file, args.output)


def _cmd_render(args: argparse.Namespace) -> int:
    from gradstep.app.services.render import render_file
    return render_file(args.file, args.output, fmt=args.format)


def _cmd_export(args: argparse.Namespace) -> int:
    from gradstep.app.services.standalone import export_file
    output = args.output or str(Path(args.file).with_suffix(".html"))
    return export_file(args.file, output, lang=args.lang, font=args.font)


def _cmd_serve(args: argparse.Namespace) -> int:
    from gradstep.app.server import serve
    return serve(host=args.host, port=args.port, workers=args.workers, reload=args.reload)


def _cmd_lesson_check(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gradstep.app.services.lessons import LessonError, parse_file
    failed = 0
    for name in args.files:
        path = Path(name)
        if not path.is_file():
            print(f"{name}: no such file", file=sys.stderr)
            failed += 1
            continue
        try:
            lesson = parse_file(path)
        except LessonError as exc:
            print(exc, file=sys.stderr)
            failed += 1
            continue
        print(f"{name}: fine: lesson {lesson.id!r} ({lesson.text('en').title}), "
              f"{len(lesson.watch)} watch pointers")
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gradstep",
        description="See PyTorch autograd work: run a snippet on gradstep's numpy engine "
                    "and step through its computation graph.")
    parser.add_argument("--version", action="version", version=f"gradstep {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("run", help="run a PyTorch program in the sandbox, print its output")
    p.add_argument("file", help="a .py file that does `import torch`")
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("trace", help="run a program and write its step-by-step trace (JSON)")
    p.add_argument("file")
    p.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    p.set_defaults(func=_cmd_trace)

    p = sub.add_parser("render", help="draw a program's final autograd graph (SVG/PNG/DOT)")
    p.add_argument("file")
    p.add_argument("-o", "--output", default="graph.svg", help="output file (default: graph.svg)")
    p.add_argument("-f", "--format", choices=("svg", "png", "dot"), default=None,
                   help="output format (default: from the output file's extension)")
    p.set_defaults(func=_cmd_render)

    p = sub.add_parser("export", help="run a program and write its player as one HTML file "
                                      "that plays with no server (file://, iframe srcdoc)")
    p.add_argument("file")
    p.add_argument("-o", "--output", default=None,
                   help="output file (default: the program's name with .html; - for stdout)")
    p.add_argument("--lang", choices=("en", "zh"), default="en",
                   help="the language it opens in (both are inside; default: en)")
    p.add_argument("--font", action=argparse.BooleanOptionalAction, default=None,
                   help="carry the Chinese font inside the file (about 1.5 MB); default: only "
                        "when it opens in Chinese or the program has Chinese in it")
    p.set_defaults(func=_cmd_export)

    p = sub.add_parser("serve", help="start the web app")
    p.add_argument("--host", default=None,
                   help="bind address (default: GRADSTEP_HOST or 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port (default: GRADSTEP_PORT or 8000)")
    p.add_argument("--workers", type=int, default=None,
                   help="uvicorn worker processes (default: GRADSTEP_WEB_WORKERS or 1)")
    p.add_argument("--reload", action="store_true", help="reload on code changes (development)")
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("lesson", help="work with lesson files (docs/lessons.md)")
    lesson = p.add_subparsers(dest="lesson_command", metavar="ACTION", required=True)
    c = lesson.add_parser("check", help="say what is wrong with lesson files, with line numbers")
    c.add_argument("files", nargs="+", metavar="FILE", help="lesson files (.toml)")
    c.set_defaults(func=_cmd_lesson_check)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
