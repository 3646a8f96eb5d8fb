# Is the installed verl affected? (reads the file, does not import verl)
# no verl found: stop with an error rather than report "not affected"
# runs in a subshell: pasted into an interactive shell, `exit` leaves the subshell, not your terminal
# the current directory is left off the search path: a verl source tree you stand in is not the installed verl
(
  VERL_DIR=$(python3 -c "import importlib.util, os, sys; sys.path[:] = [p for p in sys.path if p]; print(os.path.dirname(importlib.util.find_spec('verl').origin))" 2>/dev/null) || {
    echo "verl not found by this python3: run the check with the Python that runs verl" >&2
    exit 1
  }
  if grep -q "run_in_executor" "$VERL_DIR/checkpoint_engine/hccl_checkpoint_engine.py"; then
    echo "affected: HCCL broadcast runs in a thread pool (verl 0.9.0 or an affected main-branch commit)"
  else
    echo "not affected"
  fi
)
