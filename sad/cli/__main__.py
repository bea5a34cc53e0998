"""`python -m sad.cli`."""
import sys

from sad.cli.main import main

sys.exit(main())
