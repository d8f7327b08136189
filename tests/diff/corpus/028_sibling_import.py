# Importing a sibling helper module from the corpus directory.
import os

import corpus_helper_mod
import corpus_helper_mod as chm
from corpus_helper_mod import Vec2, triangle as tri
from corpus_helper_mod import *  # noqa: F401,F403

print(os.path.basename(__file__))
print(corpus_helper_mod.GREETING)
print("same module object:", chm is corpus_helper_mod)
print("module name:", chm.__name__)
print("triangles", [tri(i) for i in range(8)])
print("bump", chm.bump(), chm.bump(5), bump())  # noqa: F405
print("state shared", corpus_helper_mod._counter)
v = Vec2(1, 2) + Vec2(10, 20)
print("Vec2", v, v.x, v.y)
print("__all__", sorted(corpus_helper_mod.__all__))
print("GREETING via star", GREETING.split()[0])  # noqa: F405
try:
    v.z = 3
except AttributeError as e:
    print("AttributeError:", e)
print("doc", chm.__doc__.split("(")[0].strip())
import importlib
again = importlib.import_module("corpus_helper_mod")
print("reimport keeps state", again._counter)
print("main name", __name__)
