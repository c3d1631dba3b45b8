"""``python -m rummylab`` runs the command line."""

from rummylab.cli import run

run()
