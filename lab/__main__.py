"""``python -m lab``: the lab's command line (see :mod:`lab.cli`)."""

import sys

from .cli import main

sys.exit(main())
