"""The machine database: processor, communication and programming-model levels, their units and calibration.

Layer 3 of the data flow (frontends → IR → analysis → **machine** → prediction → reports). It knows the
operation vocabulary (``sad.ir.ops``) but nothing of programs: ``model`` loads and checks a YAML file,
``units`` reads figures with units, ``versions`` lists the file format's versions and upgrades older files,
``calibrate`` and ``microbench`` measure this host.
"""
