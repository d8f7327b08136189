# Effects that must come after the warnings of work recorded before them:
# text written to stderr (a stream's write, print to it) and warnings.filters
# changed in place (a list method on it). Pending warnings came after the
# text, and a filter inserted later silenced (or raised) them.
import sys
import warnings

import numpy as np


def writes(a):
    x = a / 0
    sys.stderr.write("after the division\n")
    y = np.log(a - 1.0)
    print("after the log", file=sys.stderr)
    print(x[1], y[3])


def filters_changed(a, action):
    x = np.sqrt(a - 10.0)
    warnings.filters.insert(0, (action, None, Warning, None, 0))
    print(int(np.isnan(x).sum()))
    warnings.filters.pop(0)


a = np.arange(4096.0)
writes(a)
filters_changed(a, "ignore")
warnings.simplefilter("always")
filters_changed(a, "error")
writes(a)
