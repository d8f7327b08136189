# This file deliberately contains a syntax error: the compiler reports it
# on stderr and the exit status is 1.  Nothing is printed to stdout.
import math


def good(x):
    return math.sqrt(x) + 1


print("this line never runs because the module fails to compile")


def f(:
    return 1


print(good(4))
print(f())
