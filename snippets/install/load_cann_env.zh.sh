# 在当前 shell 中加载 CANN 与 NNAL 的环境变量，路径与第 2 步相同：已设置 $ASCEND_SET_ENV 时使用该路径，否则依次尝试
# /usr/local/Ascend/ascend-toolkit/set_env.sh 和 /usr/local/Ascend/cann/set_env.sh。第 2 步在子 shell 中加载，
# 新打开的 shell（以及执行第 2 步的 shell）中没有这些环境变量。
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
