"""Helpers every layer may use and that know nothing of the data flow: the restricted expression parser."""
