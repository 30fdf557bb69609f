"""Deliberate mistakes, one at a time, for the corpus plankit is tested
against (docs/mistakes.md).

Each mistake emulates one thing an implementer writing from SPEC.md could
get wrong. `--mistake NAME` on the command line of adapter.py (the plugin)
or runtime.py (the runtime, which loads the same plugin) turns one on;
without it both examples are faithful. The names, the clause each mistake
breaks and what it does are declared once, in examples/mistakes/mistakes.json,
which this module reads so that an unknown name is refused at once rather
than silently ignored.
"""

import json
import os
import sys

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "mistakes", "mistakes.json")

_names = None
_active = None


def _known():
    global _names
    if _names is None:
        with open(TABLE, encoding="utf-8") as f:
            # the rows this example emulates (the Node examples have theirs)
            _names = {m["name"] for m in json.load(f)["mistakes"] if m.get("impl", "python") == "python"}
    return _names


def configure(argv, other_flags=""):
    """Read `--mistake NAME` (or `--mistake=NAME`) from argv and turn that
    mistake on; exit 2 on anything else. other_flags names, for the usage
    line, the flags the caller read from argv before."""
    global _active
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--mistake" and args:
            name = args.pop(0)
        elif a.startswith("--mistake="):
            name = a[len("--mistake="):]
        else:
            sys.exit("usage: %s [--mistake NAME]%s (unknown argument %r)" % (os.path.basename(sys.argv[0]), other_flags, a))
        if name not in _known():
            sys.exit("unknown mistake %r: the names are those of %s" % (name, os.path.normpath(TABLE)))
        _active = name


def on(name):
    """Whether the mistake name is the one turned on. A name the table does
    not declare is a bug in the example, not a mistake it emulates."""
    if name not in _known():
        raise AssertionError("mistake %r is not declared in %s" % (name, TABLE))
    return _active == name


def active():
    """The mistake turned on, or None."""
    return _active
