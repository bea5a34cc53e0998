"""sad: a static performance analyzer for Fortran 77 and C (symbolic application descriptions)."""
__version__ = "0.1.0"
