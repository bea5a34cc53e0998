"""The command line, the top layer: one module per command family over the layers below it.

`console` is the process's entry point (pyproject's `sad` script). `sad.cli.main` is the same function for
console scripts installed before the entry point had that name (their `from sad.cli import main` runs the
command and ends the process); code that runs commands in its own process calls sad.cli.main.run or
sad.cli.main.main (imported from the module), which return the exit status.
"""
from sad.cli.main import console
from sad.cli.main import console as main

__all__ = ["console", "main"]
