#!/usr/bin/env python3
"""Compare two plankit check JSON reports: the same checks with the same
statuses, whatever the implementation's identity. Used by CI to require that
the reference gives the same results in-process and through plankit serve."""
import json
import sys


def results(path):
    with open(path) as f:
        report = json.load(f)
    return {c["id"]: c["status"] for c in report["cases"]}, report.get("verdict")


def main():
    if len(sys.argv) != 3:
        print("usage: same-results.py A.json B.json", file=sys.stderr)
        return 2
    (a, va), (b, vb) = results(sys.argv[1]), results(sys.argv[2])
    problems = []
    for cid in sorted(set(a) | set(b)):
        if a.get(cid) != b.get(cid):
            problems.append(f"{cid}: {a.get(cid, 'missing')} vs {b.get(cid, 'missing')}")
    if va != vb:
        problems.append(f"verdict: {va} vs {vb}")
    for p in problems:
        print(p)
    print(f"{len(a)} checks compared, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
