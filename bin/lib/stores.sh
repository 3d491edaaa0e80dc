# shellcheck shell=bash
# Local MariaDB and Redis for development and CI: install them with apt-get when missing, start
# them when nothing answers, and make the configured database user work over TCP.
# Sourced by bin/flashsale ('stores' command, also run by 'up') and so by .ci/run.
#
# Debian's MariaDB lets root log in through the unix socket only, so the apps get a user of their
# own: MYSQL_USER / MYSQL_PASSWORD (default flashsale / flashsale), created here when it cannot log
# in over TCP, with every privilege on the schema `flashsale` and on `fs\_%` (the per-test and
# per-bench schemas fs_it_*, fs_bench_*), nothing else.

STORES_SUDO=""
if [[ "$(id -u)" != 0 ]] && command -v sudo >/dev/null; then
  STORES_SUDO="sudo"
fi
STORES_DB_USER="${MYSQL_USER:-flashsale}"
STORES_DB_PASSWORD="${MYSQL_PASSWORD-flashsale}"
# MariaDB's default of 151 connections is too few for several api and worker processes at once
STORES_MAX_CONNECTIONS="${STORES_MAX_CONNECTIONS:-600}"

stores_log() { echo "stores: $*"; }

stores_mariadb_up() { mysqladmin ping -h127.0.0.1 --connect-timeout=2 >/dev/null 2>&1; }
stores_redis_up() { [[ "$(redis-cli -h 127.0.0.1 ping 2>/dev/null)" == PONG ]]; }

# stores_apt WHAT PACKAGE...: installs the packages with apt-get; without apt-get, asks the user to
# install WHAT (a sentence that follows "install")
stores_apt() {
  local what="$1"
  shift
  command -v apt-get >/dev/null || { echo "stores: no apt-get to install $*; install $what" >&2 && return 1; }
  stores_log "installing $* (apt-get)"
  $STORES_SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $STORES_SUDO apt-get install -y -qq "$@" >/dev/null
}

stores_install() {
  if [[ -x /usr/sbin/mariadbd ]] && command -v mysqladmin >/dev/null && command -v mariadb >/dev/null &&
    command -v redis-server >/dev/null && command -v redis-cli >/dev/null; then
    return 0
  fi
  stores_apt "MariaDB 10.11+ (or MySQL 8) and Redis 7 yourself, or point MYSQL_URL and REDIS_URL at running servers" \
    mariadb-server redis-server
}

# stores_await SECONDS WHAT CHECK...: polls CHECK once a second; fails naming WHAT after SECONDS
stores_await() {
  local seconds="$1" what="$2" _
  shift 2
  for _ in $(seq 1 "$seconds"); do
    "$@" && return 0
    sleep 1
  done
  echo "stores: $what within $seconds s" >&2
  return 1
}

# Redis keeps every admission in its append-only file: a buyer's 202 rests on the admission entry
# admit.lua wrote (docs/faults.md: what each fsync policy loses). REDIS_APPENDFSYNC: everysec
# (default) or always. A Redis that already runs gets the same settings (CONFIG SET, idempotent).
STORES_REDIS_APPENDFSYNC="${REDIS_APPENDFSYNC:-everysec}"

stores_start_redis() {
  if stores_redis_up; then
    redis-cli -h 127.0.0.1 CONFIG SET appendonly yes appendfsync "$STORES_REDIS_APPENDFSYNC" >/dev/null
    return 0
  fi
  stores_log "starting Redis on 127.0.0.1:6379 (AOF, appendfsync $STORES_REDIS_APPENDFSYNC)"
  $STORES_SUDO mkdir -p /var/lib/redis /var/log/redis
  $STORES_SUDO redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly yes \
    --appendfsync "$STORES_REDIS_APPENDFSYNC" --dir /var/lib/redis --logfile /var/log/redis/flashsale.log
  stores_await 30 "Redis did not answer PING (see /var/log/redis/flashsale.log)" stores_redis_up
}

stores_start_mariadb() {
  stores_mariadb_up && return 0
  stores_log "starting MariaDB on 127.0.0.1:3306"
  $STORES_SUDO install -d -o mysql -g mysql /run/mysqld
  [[ -d /var/lib/mysql/mysql ]] || $STORES_SUDO mariadb-install-db --user=mysql >/dev/null
  # matched by its pid file: another mariadbd (a chaos run's own, say) is not this server
  $STORES_SUDO start-stop-daemon --start --oknodo --background --pidfile /run/mysqld/mysqld.pid \
    --exec /usr/sbin/mariadbd -- --user=mysql --bind-address=127.0.0.1 --pid-file=/run/mysqld/mysqld.pid \
    --max-connections="$STORES_MAX_CONNECTIONS"
  stores_await 60 "MariaDB did not answer ping" stores_mariadb_up
}

stores_user_works() {
  mariadb -h127.0.0.1 -P3306 -u"$STORES_DB_USER" -p"$STORES_DB_PASSWORD" -e 'SELECT 1' >/dev/null 2>&1
}

# As MariaDB's root over the unix socket (Debian's default): the app user, and enough connections.
stores_configure_mariadb() {
  local user="${STORES_DB_USER//\'/\'\'}" password="${STORES_DB_PASSWORD//\'/\'\'}" host
  if ! stores_user_works; then
    stores_log "creating MariaDB user '$STORES_DB_USER' (TCP login; schemas flashsale and fs_*)"
    for host in 127.0.0.1 localhost ::1; do
      $STORES_SUDO mariadb -uroot <<SQL || return 1
CREATE USER IF NOT EXISTS '$user'@'$host' IDENTIFIED BY '$password';
ALTER USER '$user'@'$host' IDENTIFIED BY '$password';
GRANT ALL PRIVILEGES ON \`flashsale\`.* TO '$user'@'$host';
GRANT ALL PRIVILEGES ON \`fs\\_%\`.* TO '$user'@'$host';
SQL
    done
    stores_user_works || { echo "stores: user '$STORES_DB_USER' still cannot log in over TCP" >&2; return 1; }
  fi
  $STORES_SUDO mariadb -uroot -e "SET GLOBAL max_connections = GREATEST(@@max_connections, $STORES_MAX_CONNECTIONS)" \
    2>/dev/null || true
}

# stores_up: MariaDB and Redis answer on loopback and the app user logs in over TCP.
stores_up() {
  stores_install
  stores_start_redis
  stores_start_mariadb
  stores_configure_mariadb
}

# ---------------------------------------------------------------------------------------------
# The production Redis topology for one master on this machine ('up --redis sentinel'): the Redis
# above as master, a replica of it on 6380 (AOF as well) and three Sentinels (26379-26381, quorum 2)
# watching master "flashsale"; the apps then find the master through the Sentinels and answer a 202
# once the replica has the admission. Exports what the apps read (REDIS_SENTINEL_MASTER,
# REDIS_SENTINEL_NODES, FLASHSALE_REDIS_REPLICATION_REPLICAS).
STORES_REPLICA_PORT=6380
STORES_SENTINEL_PORTS=(26379 26380 26381)

stores_sentinel_sees() { # stores_sentinel_sees PORT: the sentinel knows the replica and the other two
  local seen
  seen="$(redis-cli -p "$1" SENTINEL master flashsale 2>/dev/null | paste -sd' ')"
  [[ "$seen" == *"num-slaves 1 "* && "$seen" == *"num-other-sentinels 2 "* ]]
}

stores_sentinel() {
  local port conf
  $STORES_SUDO mkdir -p /var/lib/redis/replica /var/log/redis
  if [[ "$(redis-cli -p "$STORES_REPLICA_PORT" ping 2>/dev/null)" != PONG ]]; then
    stores_log "starting a Redis replica on 127.0.0.1:$STORES_REPLICA_PORT"
    $STORES_SUDO redis-server --daemonize yes --bind 127.0.0.1 --port "$STORES_REPLICA_PORT" --save "" \
      --appendonly yes --appendfsync "$STORES_REDIS_APPENDFSYNC" --dir /var/lib/redis/replica \
      --replicaof 127.0.0.1 6379 --logfile /var/log/redis/flashsale-replica.log
  fi
  for port in "${STORES_SENTINEL_PORTS[@]}"; do
    [[ "$(redis-cli -p "$port" ping 2>/dev/null)" == PONG ]] && continue
    conf="/var/lib/redis/sentinel-$port.conf"
    stores_log "starting Redis Sentinel on 127.0.0.1:$port"
    printf '%s\n' "port $port" "bind 127.0.0.1" "daemonize yes" "dir /var/lib/redis" \
      "logfile /var/log/redis/flashsale-sentinel-$port.log" "sentinel monitor flashsale 127.0.0.1 6379 2" \
      "sentinel down-after-milliseconds flashsale 5000" "sentinel failover-timeout flashsale 60000" |
      $STORES_SUDO tee "$conf" >/dev/null
    $STORES_SUDO redis-server "$conf" --sentinel
  done
  for port in "${STORES_SENTINEL_PORTS[@]}"; do
    stores_await 60 "Sentinel $port does not see the replica and the other sentinels" stores_sentinel_sees "$port"
  done
  export REDIS_SENTINEL_MASTER=flashsale
  REDIS_SENTINEL_NODES="$(printf '127.0.0.1:%s,' "${STORES_SENTINEL_PORTS[@]}")"
  export REDIS_SENTINEL_NODES="${REDIS_SENTINEL_NODES%,}"
  export FLASHSALE_REDIS_REPLICATION_REPLICAS="${FLASHSALE_REDIS_REPLICATION_REPLICAS:-1}"
}

# ---------------------------------------------------------------------------------------------
# PostgreSQL for the production-like Temporal cluster (module launcher; 'up --temporal
# cluster' and its tests). Temporal supports PostgreSQL 12+ and not MariaDB; the app's own orders
# stay on MariaDB/MySQL. Debian's cluster 15/main on 127.0.0.1:5432, with a login role of its own,
# TEMPORAL_PG_USER / TEMPORAL_PG_PASSWORD (default temporal / temporal), allowed to create the
# databases each cluster gets (temporal_<name>, temporal_<name>_visibility).
STORES_PG_USER="${TEMPORAL_PG_USER:-temporal}"
STORES_PG_PASSWORD="${TEMPORAL_PG_PASSWORD-temporal}"
# each Temporal process holds a pool; several clusters (a dev one and a test's) may run at once
STORES_PG_MAX_CONNECTIONS="${STORES_PG_MAX_CONNECTIONS:-400}"

stores_postgres_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }

stores_postgres_user_works() {
  PGPASSWORD="$STORES_PG_PASSWORD" psql -h 127.0.0.1 -p 5432 -U "$STORES_PG_USER" -d postgres -tAc 'SELECT 1' \
    >/dev/null 2>&1
}

stores_postgres_psql() { # as the postgres superuser, through the unix socket
  $STORES_SUDO runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -d postgres
}

stores_install_postgres() {
  command -v pg_ctlcluster >/dev/null && command -v psql >/dev/null && return 0
  stores_apt "PostgreSQL 12+ yourself" postgresql
}

stores_start_postgres() {
  stores_postgres_up && return 0
  local version
  version="$(pg_lsclusters -h | awk 'NR==1 {print $1}')"
  if [[ -z "$version" ]]; then
    version="$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -n | tail -1)"
    $STORES_SUDO pg_createcluster "$version" main >/dev/null
  fi
  stores_log "starting PostgreSQL $version on 127.0.0.1:5432"
  $STORES_SUDO pg_conftool -s "$version" main set max_connections "$STORES_PG_MAX_CONNECTIONS"
  $STORES_SUDO pg_conftool -s "$version" main set listen_addresses localhost
  $STORES_SUDO pg_ctlcluster "$version" main start
  stores_await 60 "PostgreSQL did not answer pg_isready" stores_postgres_up
}

stores_configure_postgres() {
  stores_postgres_user_works && return 0
  local user="${STORES_PG_USER//\"/\"\"}" password="${STORES_PG_PASSWORD//\'/\'\'}"
  stores_log "creating PostgreSQL role '$STORES_PG_USER' (TCP login, CREATEDB)"
  stores_postgres_psql <<SQL || return 1
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$user') THEN CREATE ROLE "$user"; END IF;
END \$\$;
ALTER ROLE "$user" WITH LOGIN CREATEDB PASSWORD '$password';
SQL
  stores_postgres_user_works || { echo "stores: role '$STORES_PG_USER' still cannot log in over TCP" >&2; return 1; }
}

# stores_postgres: PostgreSQL answers on loopback and Temporal's role logs in over TCP.
stores_postgres() {
  stores_install_postgres
  stores_start_postgres
  stores_configure_postgres
}

# Prometheus and promtool (the alert rules' tests, 'up --observe'), from Debian's prometheus
# package when missing. Only the programs are wanted, not the package's service: a policy-rc.d
# that refuses every service start stands in for the machine's own (put back afterwards) during
# the install, and on systemd the unit the package enabled for the next boot is disabled. No
# recommends: they add node-exporter, another service.
stores_prometheus() {
  if command -v prometheus >/dev/null && { [[ -x "${PROMTOOL:-}" ]] || command -v promtool >/dev/null; }; then
    return 0
  fi
  stores_log "installing prometheus (apt-get), its service not started"
  local policy=/usr/sbin/policy-rc.d saved=/usr/sbin/policy-rc.d.before-install
  [[ ! -e "$policy" ]] || $STORES_SUDO mv "$policy" "$saved"
  printf '#!/bin/sh\nexit 101\n' | $STORES_SUDO tee "$policy" >/dev/null
  $STORES_SUDO chmod 755 "$policy"
  $STORES_SUDO apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $STORES_SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null || true
  $STORES_SUDO rm -f "$policy"
  [[ ! -e "$saved" ]] || $STORES_SUDO mv "$saved" "$policy"
  if [[ -d /run/systemd/system ]]; then
    $STORES_SUDO systemctl disable --now prometheus >/dev/null 2>&1 || true
  fi
  command -v promtool >/dev/null || { stores_log "prometheus is still missing after installing it"; return 1; }
}

# ---------------------------------------------------------------------------------------------
# Chromium and its driver for the Web UI test (WebUiIT), from the distribution when missing: the
# test uses CHROME_BIN and CHROMEDRIVER, by default the Debian packages' /usr/bin/chromium and
# /usr/bin/chromedriver, and downloads nothing itself.
stores_chromium() {
  if [[ -x "${CHROME_BIN:-/usr/bin/chromium}" && -x "${CHROMEDRIVER:-/usr/bin/chromedriver}" ]]; then
    return 0
  fi
  stores_apt "Chromium and its driver yourself (CHROME_BIN, CHROMEDRIVER)" chromium chromium-driver
}

# stores_for_tests: everything './mvnw -B verify' needs on this machine (its root pom calls this
# through 'bin/flashsale stores --for-tests'): MariaDB and Redis, PostgreSQL for the Temporal
# cluster's tests, Chromium for the Web UI test, Prometheus and promtool for the alert rules' tests.
stores_for_tests() {
  stores_up
  stores_postgres
  stores_chromium
  stores_prometheus
}
