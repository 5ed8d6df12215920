# Sourced by the bench scripts that start a Burnbox (or bench) server with --smtp-port=0.
# listening_port LOG: waits up to 60 s for the server's `listening smtp=PORT` line in LOG and
# prints PORT; prints nothing (and returns 1) if the line does not come.
listening_port() {
  local port=""
  for _ in $(seq 1 600); do
    port="$(sed -n 's/.*listening smtp=\([0-9]*\).*/\1/p' "$1" | head -1)"
    if [[ -n "$port" ]]; then
      echo "$port"
      return 0
    fi
    sleep 0.1
  done
  return 1
}
