#!/usr/bin/env python3
"""Summarises run-mistakes.sh output: per mistake, the check's failing cases
(with the clauses plankit attributed and the rule or observation that named
them) and the first divergence of each diff run. Usage: summarize-mistakes.py OUT"""
import json, os, re, sys

sys.path.insert(0, os.path.dirname(__file__))
out = sys.argv[1]
BASELINE = {'rt-cmd-off-padded'}  # fails the faithful runtime too (kit problem)

def diff_line(path):
    if not os.path.exists(path):
        return '(not run)'
    text = open(path).read()
    m = re.search(r'^divergence: (.*?); (new|explained by .*?|known.*?); trace', text, re.M)
    if m:
        return m.group(1) + ' — ' + m.group(2)
    if 'no divergence' in text:
        return 'no divergence'
    return text.strip().splitlines()[-1]

for name in sorted(os.listdir(out)):
    d = os.path.join(out, name)
    print(f'== {name}')
    try:
        r = json.load(open(os.path.join(d, 'check.json')))
    except Exception as e:
        print('  check: no report', e)
        continue
    failed = [c for c in r['cases'] if c['status'] == 'failed']
    own = [c for c in failed if c['id'] not in BASELINE]
    print(f"  check: verdict {r['verdict']}, {len(failed)} failed ({len(own)} beyond the baseline)")
    for c in own:
        print(f"    {c['id']}: attributed {' '.join(c.get('attributed', []))} by {c.get('observed', '?')} (tags {' '.join(c.get('clauses', []))})")
    print('  diff (defaults):  ', diff_line(os.path.join(d, 'diff.txt')))
    print('  diff (laid aside):', diff_line(os.path.join(d, 'diff-aside.txt')))
