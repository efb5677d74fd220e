"""Package discovery that pyproject.toml cannot express on its own.

The repository's layer folders `engine/`, `runner/` and `app/` ship as `gradstep.engine`,
`gradstep.runner` and `gradstep.app`, and `templates/` and `static/` as
`gradstep.app.templates` and `gradstep.app.static` (see `[tool.setuptools.package-dir]` in
pyproject.toml), so that `gradstep` is the only name an install adds to site-packages.
setuptools' automatic discovery only looks inside the source tree's own folders, so it never
finds mapped packages; naming them here is what puts the code, HTML, JS and CSS into wheels
and non-editable installs. Everything else is in pyproject.toml.
"""
import os

from setuptools import setup


def mapped_packages(folder: str, package: str) -> list[str]:
    """`package` plus one dotted name per sub-folder of `folder`.

    Code folders without __init__.py (engine/ops works as an implicit namespace package) and
    asset folders (data, not code) are listed too: that tells setuptools they are meant to
    ship (otherwise it warns "Package would be ignored" for each).
    """
    if not os.path.isdir(folder):     # not there yet; tests/foundation notices the gap
        return []
    names = [package]
    for root, dirs, _files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        rel = os.path.relpath(root, folder)
        if rel != ".":
            names.append(package + "." + rel.replace(os.sep, "."))
    return names


LAYERS = {"engine": "gradstep.engine", "runner": "gradstep.runner", "app": "gradstep.app",
          "templates": "gradstep.app.templates", "static": "gradstep.app.static"}

setup(packages=["gradstep"] + [name for folder, package in LAYERS.items()
                               for name in mapped_packages(folder, package)])
