"""gradstep's server, command line and lessons (the `app` layer: engine <- runner <- app).

`__version__` is the one place the version is written: the package metadata reads it at
build time (pyproject.toml, `[tool.setuptools.dynamic]`), and `gradstep --version` and the
OpenAPI description show it.
"""
__version__ = "0.1.0"
