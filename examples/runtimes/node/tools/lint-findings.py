#!/usr/bin/env python3
"""Sorts `plankit lint --format json` findings on this runtime's session logs
by who wrote the event each finding points at ("by" on each journal line:
runtime, outside, opened). Usage: lint-findings.py [-v] LINT.json...
(a file may hold several reports one after another, as xargs leaves them)"""
import json, sys, collections

def reports(paths):
    for p in paths:
        text, at, dec = open(p).read(), 0, json.JSONDecoder()
        while at < len(text):
            while at < len(text) and text[at].isspace():
                at += 1
            if at == len(text):
                break
            doc, at = dec.raw_decode(text, at)
            yield doc

by_writer = collections.Counter()
rows = []
files = [f for r in reports(a for a in sys.argv[1:] if a != '-v') for f in r['files']]
print(f'{len(files)} logs')
for f in files:
    path = f.get('file') or f.get('path') or f.get('name')
    lines = open(path).read().split('\n')
    for e in f.get('entries', []):
        if e.get('level') not in ('finding', 'error'):
            continue
        n = e.get('line')
        writer = '?'
        if n and 0 < n <= len(lines) and lines[n - 1].strip():
            writer = json.loads(lines[n - 1]).get('by', '?')
        by_writer[(writer, e.get('clause'), e.get('rule'))] += 1
        rows.append((writer, path, n, e.get('clause'), e.get('rule'), e.get('message')))
for (writer, clause, rule), count in sorted(by_writer.items()):
    print(f'{count:5d}  {writer:8s} {clause:7s} {rule}')
if '-v' in sys.argv:
    for r in rows:
        if r[0] == 'runtime':
            print(*r, sep=' | ')
