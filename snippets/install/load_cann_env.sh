# Load CANN's and NNAL's environment into the current shell, from the same paths as step 2: $ASCEND_SET_ENV when set,
# else /usr/local/Ascend/ascend-toolkit/set_env.sh, else /usr/local/Ascend/cann/set_env.sh. Step 2 loads them in a
# subshell, so a new shell (or the one you ran step 2 from) does not have them.
if [ -z "${ASCEND_SET_ENV:-}" ]; then
  for f in /usr/local/Ascend/ascend-toolkit/set_env.sh /usr/local/Ascend/cann/set_env.sh; do
    if [ -f "$f" ]; then ASCEND_SET_ENV="$f"; break; fi
  done
fi
if [ -f "${ASCEND_SET_ENV:-}" ]; then
  source "$ASCEND_SET_ENV"
  if [ -f "${ASCEND_SET_ENV%/*/*}/nnal/atb/set_env.sh" ]; then
    source "${ASCEND_SET_ENV%/*/*}/nnal/atb/set_env.sh"
  else
    echo "warning: NNAL's set_env.sh not found under ${ASCEND_SET_ENV%/*/*}/nnal/atb/" >&2
  fi
else
  echo "error: CANN's set_env.sh not found${ASCEND_SET_ENV:+ at $ASCEND_SET_ENV}; set ASCEND_SET_ENV to your CANN install's set_env.sh" >&2
fi
