"""Prediction: the SAD bound to a machine (``mapper``) and rendered for people and programs (``report``).

Layer 4 of the data flow (frontends → IR → analysis → machine → **prediction** → reports).
"""
