"""gradstep's server, command line, notebook player and lessons (the `app` layer:
engine <- runner <- app). The version is written once, in the `gradstep` package."""
from gradstep import __version__

__all__ = ["__version__"]
