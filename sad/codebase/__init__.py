"""Codebase checks (`sad check`): library mode over whole source trees, baselines and regressions, CI
report formats, parallel and cached runs. Sits above sad.predict (it prices each routine on a machine) and
below sad.cli."""
