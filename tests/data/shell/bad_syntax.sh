if [ -n "$X" ]; then
  echo "unterminated"
