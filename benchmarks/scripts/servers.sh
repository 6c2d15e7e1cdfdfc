# Shared by the comparison scripts: one server at a time, started with the descriptors above 2
# closed (so a flock the script runs under is not held by a server that outlives it), stopped by
# its pid. Source it; it sets server_pid and a trap that stops the server on exit.

PREFIX=/tmp/perf/nginx
mkdir -p "$PREFIX/logs"

server_pid=""
stop() {
  if [[ -n "$server_pid" ]]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
trap stop EXIT

wait_port() {
  for _ in $(seq 1 300); do
    if curl -s -o /dev/null "http://127.0.0.1:$1/f000.bin"; then
      return 0
    fi
    sleep 0.1
  done
  echo "nothing answers on port $1" >&2
  return 1
}

# start_rondo JAR CONFIGDIR DATA [JAVA_OPTS...]: a Rondo on ports 18080 (HTTP), 18554 (streams), 18081 (admin)
start_rondo() {
  local jar="$1" config="$2" data="$3"
  shift 3
  java --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED \
    --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED \
    --add-opens=java.base/java.lang.reflect=ALL-UNNAMED -Dchronicle.analytics.disable=true \
    -Djava.awt.headless=true -Drondo.config.dir="$config" "$@" \
    -jar "$jar" serve --data "$data" --port 18080 --stream-port 18554 --admin-port 18081 \
    >/tmp/perf/rondo-serve.log 2>&1 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
  server_pid=$!
  wait_port 18080
}

# start_nginx CONF: nginx on 127.0.0.1:18090
start_nginx() {
  nginx -c "$1" -p "$PREFIX" 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
  server_pid=$!
  wait_port 18090
}
