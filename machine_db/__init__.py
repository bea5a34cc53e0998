"""Machine databases shipped with sad (YAML) and their schema; `sad.machine` loads them."""
from pathlib import Path

DB_DIR = Path(__file__).resolve().parent
