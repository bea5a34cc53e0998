"""Measurement: what only a run can tell, fed back to the SAD.

Layer 5 of the data flow: compile and run with gcov (``gcov``, the one gcov reader), solve the SAD's line
counts for its unknowns (``profile``), fit them across sizes (``fit``), run a whole profiling campaign over
size points (``campaign``), export them (``extrap``, ``params_io``), plot them (``plot``), and check
predictions against timed runs (``validate``).
"""
