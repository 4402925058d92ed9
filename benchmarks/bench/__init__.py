"""The benchmark (python -m benchmarks.bench, make bench; what it does: __main__.py).

Its modules: configurations.py (what is measured, and the targets), plays.py (the plays it writes), runner.py
(the services, the plays run, the timings and request counts), report.py (RESULTS.md, results.png, the docs'
numbers); __main__.py reads the options.
"""
