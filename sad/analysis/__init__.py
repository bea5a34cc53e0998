"""Analysis: IR → control flow, exact counts, value backtracing, parameters and the SAD.

Layer 2 of the data flow (frontends → IR → **analysis** → machine → prediction → reports). ``pipeline`` is the
one module that calls the frontends; it hands the SAD (``blocks``) and the parameter table to the mapper.
"""
