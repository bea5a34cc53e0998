"""`python -m sad`: the command line (the same entry point as the `sad` console script)."""
from sad.cli.main import console

console()
