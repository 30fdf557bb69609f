# Step timing for the CI scripts (sourced, not run). `step NAME` ends the
# step before it, printing its wall and CPU time (the CPU time of the
# programs it ran, user + sys), and starts NAME; `steps_summary` ends the
# last step and lists the slowest. On a shared machine the CPU time is the
# figure to compare (docs/performance.md).
_step_name=""
_step_wall=0
_step_cpu=0
_step_log=()

_step_times=$(mktemp)

# _children_cpu sets _cpu to the CPU seconds (user + sys) the shell's
# finished children used so far (`times` runs in this shell, not in a
# subshell, whose children would be its own).
_children_cpu() {
  times > "$_step_times"
  _cpu=$(awk 'NR == 2 {
    n = split($0, f, " "); s = 0
    for (i = 1; i <= n; i++) { split(f[i], ms, "m"); sub("s", "", ms[2]); s += ms[1] * 60 + ms[2] }
    printf "%.2f", s }' "$_step_times")
}

step_end() {
  [ -n "$_step_name" ] || return 0
  local wall cpu
  _children_cpu
  wall=$(awk -v a="$_step_wall" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  cpu=$(awk -v a="$_step_cpu" -v b="$_cpu" 'BEGIN { printf "%.1f", b - a }')
  echo "   (${wall} s wall, ${cpu} s CPU: $_step_name)"
  _step_log+=("$(printf '%7s %7s  %s' "$wall" "$cpu" "$_step_name")")
  _step_name=""
}

step() {
  step_end
  _step_name=$1
  _step_wall=$(date +%s.%N)
  _children_cpu
  _step_cpu=$_cpu
  echo "== $1"
}

steps_summary() {
  step_end
  rm -f "$_step_times"
  [ ${#_step_log[@]} -gt 0 ] || return 0
  echo "== $1: the slowest steps (wall s, CPU s)"
  printf '%s\n' "${_step_log[@]}" | sort -rn | head -n 10
}
