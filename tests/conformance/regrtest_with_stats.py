"""Runs CPython's regression tests (python -m test) inside this process and
writes npython's counters to the JSON file named by the first argument when
the run ends. The counters are read this way, not through NPY_JIT_STATS,
because the tests' own child processes must print nothing extra."""
import json
import sys

import npython
from test.libregrtest.main import main

stats_file = sys.argv.pop(1)
try:
    main()
finally:
    with open(stats_file, "w") as f:
        json.dump(npython.stats(), f)
