"""``python -m rummylab`` runs the command line."""

import sys

from rummylab.cli import main

sys.exit(main())
