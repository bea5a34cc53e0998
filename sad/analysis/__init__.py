"""Analysis: IR → control flow, exact counts, value backtracing, parameters and the SAD.

Layer 2 of the data flow (frontends → IR → **analysis** → machine → prediction → reports). ``pipeline`` is the
one module that calls the frontends; ``builder`` walks each procedure's statement lists and counts events,
with ``naming`` (X, P, C parameters), ``jumps`` (control edges, error exits), ``branches`` (IF arm
probabilities) and ``calls`` (call expansion) sharing ``buildstate``; the SAD itself (events, blocks, a
program's ``Analysis``) is ``description``, which goes with the parameter table to the mapper.
"""
