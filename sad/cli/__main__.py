"""`python -m sad.cli`."""
from sad.cli.main import console

console()
