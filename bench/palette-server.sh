# Sourced by bench/apple-likeness and bench/palette-bench: builds the release contrast-server,
# starts it on a free loopback port and stops it on exit. Sets PORT.
SCRATCH=${SCRATCH:-.build}
echo "== building contrast-server (release, scratch path $SCRATCH)" >&2
swift build -c release --scratch-path "$SCRATCH" --product contrast-server 2>&1 | tail -n 1 >&2
BIN="$SCRATCH/release/contrast-server"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
CONTRAST_HOST=127.0.0.1 CONTRAST_PORT=$PORT CONTRAST_LOG_LEVEL=error "$BIN" >/dev/null 2>&1 &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  python3 -c "import urllib.request, sys; urllib.request.urlopen('http://127.0.0.1:$PORT/healthz', timeout=1)" 2>/dev/null && break
  sleep 0.1
done
export PORT
