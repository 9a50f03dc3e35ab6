#!/usr/bin/env bash
# Starts (or stops) a private, throw-away PostgreSQL cluster on a free loopback port for `npm run test:pg`.
#   eval "$(scripts/pg-test-cluster.sh start)"   → exports TEST_DATABASE_URL and VERITY_PG_DIR
#   scripts/pg-test-cluster.sh stop "$VERITY_PG_DIR"
set -euo pipefail
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
[ -x "$PGBIN/initdb" ] || { echo "PostgreSQL server binaries not found; install them: apt-get install -y postgresql" >&2; exit 1; }

as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }

case "${1:-}" in
  start)
    dir=$(mktemp -d /tmp/verity-pg.XXXXXX)
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
    as_pg "'$PGBIN/initdb' -D '$dir/data' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >/dev/null
    as_pg "'$PGBIN/pg_ctl' -D '$dir/data' -o \"-k '$dir' -h 127.0.0.1 -p $port -c fsync=off\" -w -l '$dir/log' start" >/dev/null
    echo "export VERITY_PG_DIR='$dir'"
    echo "export TEST_DATABASE_URL='postgres://postgres@127.0.0.1:$port/postgres'"
    ;;
  stop)
    dir=${2:?usage: stop DIR}
    as_pg "'$PGBIN/pg_ctl' -D '$dir/data' -m fast -w stop" >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start | stop DIR" >&2; exit 2 ;;
esac
