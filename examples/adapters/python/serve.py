"""The request loop both Python examples serve: the plugin-level adapter
(adapter.py) and the runtime (examples/runtimes/python). Both of
plankit's protocols carry one JSON request per line on stdin and one JSON
reply line for each on stdout; logs go to stderr (set PLANMODE_DEBUG=1 to
see every request).
"""

import json
import os
import sys

DEBUG = os.environ.get("PLANMODE_DEBUG") == "1"


class Failure(Exception):
    """The request could not be handled: becomes an error reply."""


def serve(methods):
    """Answer requests until stop or the end of stdin. methods maps each
    method, stop included, to a function of the request's params that
    returns its result; a method not in methods gets an unsupported reply,
    and what a function raises an error reply (a Failure's message as it
    is; a bug here is an error reply too, not a dead process)."""
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        seq, method = request.get("seq"), request.get("method")
        if DEBUG:
            print("request %s %s" % (seq, method), file=sys.stderr)
        reply = {"seq": seq}
        if method not in methods:
            reply["unsupported"] = {"message": "unknown method %r" % method}
        else:
            try:
                reply["result"] = methods[method](request.get("params") or {})
            except Failure as e:
                reply["error"] = {"message": str(e)}
            except Exception as e:
                reply["error"] = {"message": "%s: %s" % (type(e).__name__, e)}
        out.write(json.dumps(reply, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
        out.flush()
        if method == "stop":
            return
