# Sourced by scripts/test.sh and scripts/perf-ratios.sh: the interpreters
# the tests and the measured runs start thousands of times (every real
# restart of a Node or Python adapter or runtime) start without this
# machine's taxes, which belong to the machine, not to the kit. Nothing
# run after it opens a network connection. (docs/performance.md, "CI")
#
# NODE_EXTRA_CA_CERTS (set on some machines, this one among them) makes
# every Node start parse the named certificate bundle: about 50 ms of CPU
# of the 70-90 a start costs here. It is unset.
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then
  echo "NODE_EXTRA_CA_CERTS was set; unset for these runs"
  unset NODE_EXTRA_CA_CERTS
fi
# Where python3 on PATH is a version manager's shim (pyenv's is a bash
# script that runs several programs to find the interpreter: about 50 ms
# of CPU before Python itself starts, measured here), the interpreter it
# resolves to is run directly: its directory goes first on PATH.
if python_bin=$(python3 -c 'import os, sys; print(os.path.dirname(os.path.realpath(sys.executable)))' 2>/dev/null) && [ -n "$python_bin" ]; then
  PATH="$python_bin:$PATH"
fi
