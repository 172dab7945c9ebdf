# The phases of a long script, for `source`: a line when each starts, its time when it ends,
# and when the script stops early, which phase failed and which never ran (a red run must
# not read as if the later suites had passed).
#   planned_phases=(one two three)   # every phase, in order, before the first `phase`
#   phase one; ...; phase two; ...; phases_done
# Bash alone (no `date`, no `bc`), so it works on the bare PATH of the prerequisite check.

phases_started=$EPOCHREALTIME
phase_start=$phases_started
phase_name=""
phases_run=()

elapsed() { # seconds since $1, one decimal
  local now=${EPOCHREALTIME/[.,]/} from=${1/[.,]/}
  local tenths=$(((now - from) / 100000))
  echo "$((tenths / 10)).$((tenths % 10)) s"
}

phase() {
  [ -z "$phase_name" ] || echo "<== $phase_name: $(elapsed "$phase_start")"
  phase_name=$1
  phase_start=$EPOCHREALTIME
  phases_run+=("$1")
  echo "==> $phase_name"
}

phases_done() {
  echo "<== $phase_name: $(elapsed "$phase_start")"
  phase_name=""
  echo "all test phases passed in $(elapsed "$phases_started")"
}

phases_on_exit() {
  local code=$?
  [ "$code" -ne 0 ] && [ -n "$phase_name" ] || return "$code"
  {
    echo "<== $phase_name: FAILED (exit $code) after $(elapsed "$phase_start")"
    local not_run=() planned ran seen
    for planned in "${planned_phases[@]}"; do
      seen=""
      for ran in "${phases_run[@]}"; do [ "$ran" != "$planned" ] || seen=1; done
      [ -n "$seen" ] || not_run+=("$planned")
    done
    if [ ${#not_run[@]} -gt 0 ]; then
      local joined
      joined=$(printf '%s; ' "${not_run[@]}")
      echo "not run, because '$phase_name' failed: ${joined%; }"
    fi
  } >&2
  return "$code"
}
trap phases_on_exit EXIT
