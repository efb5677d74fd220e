"""Package discovery that pyproject.toml cannot express on its own.

`templates/` and `static/` live at the top of the repository but ship inside the `app`
package as `app.templates` and `app.static` (see `[tool.setuptools.package-dir]` in
pyproject.toml). setuptools' automatic discovery only looks inside the source tree's own
folders, so it never finds those mapped packages; naming them here is what puts the HTML,
JS and CSS into wheels and non-editable installs. Everything else is in pyproject.toml.
"""
import os

from setuptools import find_namespace_packages, setup


def asset_packages(folder: str, package: str) -> list[str]:
    """`package` plus one dotted name per sub-folder of `folder`.

    The sub-folders hold data, not code; listing them as packages tells setuptools that
    they are meant to ship (otherwise it warns "Package would be ignored" for each).
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


# Namespace discovery: a code folder without __init__.py (engine/ops works as an implicit
# namespace package from a checkout) still ships.
setup(
    packages=find_namespace_packages(include=["gradstep", "engine", "engine.*", "runner",
                                              "runner.*", "app", "app.*"],
                                     exclude=["*.__pycache__"])
    + asset_packages("templates", "app.templates")
    + asset_packages("static", "app.static"),
)
