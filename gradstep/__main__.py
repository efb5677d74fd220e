"""`python -m gradstep`: the `gradstep` command."""
import sys

from gradstep.app.cli import main

sys.exit(main())
