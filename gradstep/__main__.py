"""`python -m gradstep`: the `gradstep` command."""
import sys

from app.cli import main

sys.exit(main())
