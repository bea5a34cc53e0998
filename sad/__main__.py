"""`python -m sad`: the command line."""
import sys

from sad.cli.main import main

sys.exit(main())
