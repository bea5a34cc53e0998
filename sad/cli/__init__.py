"""The command line, the top layer: one module per command family over the layers below it."""
from sad.cli.main import main  # noqa: F401  (the console script's entry point)
