"""`python -m gradstep.app` is the `gradstep` command, as `python -m gradstep` is."""
import sys

from gradstep.app.cli import main

sys.exit(main())
