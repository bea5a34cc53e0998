"""Prediction: the SAD bound to a machine (``mapper``) and rendered for people and programs (``report``);
``job.run`` does the whole job (files, options, machine → analysis, blocks, prediction) in one call.

Layer 4 of the data flow (frontends → IR → analysis → machine → **prediction** → reports).
"""
