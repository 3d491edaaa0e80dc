# shellcheck shell=bash
# Oracle MySQL for the store and order tests, next to MariaDB, without Docker and without installing
# anything system-wide (docs/mysql.md). Debian bookworm ships no MySQL; Debian sid ships Oracle's
# MySQL 9.7 (source package mysql-9.7). This fetches mysql-server-core and the libraries it needs
# from sid (their glibc and libstdc++ included: bookworm's are too old), unpacks them with dpkg-deb
# under .tools/, and runs that mysqld through sid's own dynamic loader on a loopback port, with its
# data, socket, pid file and log in one folder. Nothing outside .tools/ is touched.
#
#   source bin/lib/oracle-mysql.sh
#   oracle_mysql_start            # fetches on first use; prints MYSQL_URL / MYSQL_USER / MYSQL_PASSWORD
#   MYSQL_URL="$(oracle_mysql_url)" ./mvnw -B -pl stores,activities -am verify
#   oracle_mysql_stop             # stops the mysqld it started (by the pid it recorded), nothing else
#
# Settings (environment): ORACLE_MYSQL_PORT (3307), ORACLE_MYSQL_HOME (.tools/oracle-mysql-sid),
# ORACLE_MYSQL_MIRROR (http://deb.debian.org/debian), ORACLE_MYSQL_PACKAGES (a local copy of sid's
# main/binary-amd64/Packages.xz; fetched when unset), MYSQL_USER / MYSQL_PASSWORD (flashsale).

ORACLE_MYSQL_ROOT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ORACLE_MYSQL_HOME="${ORACLE_MYSQL_HOME:-$ORACLE_MYSQL_ROOT_DIR/.tools/oracle-mysql-sid}"
ORACLE_MYSQL_PORT="${ORACLE_MYSQL_PORT:-3307}"
ORACLE_MYSQL_MIRROR="${ORACLE_MYSQL_MIRROR:-http://deb.debian.org/debian}"
ORACLE_MYSQL_USER="${MYSQL_USER:-flashsale}"
ORACLE_MYSQL_PASSWORD="${MYSQL_PASSWORD-flashsale}"
# sid packages mysqld needs at run time that are not shared libraries (or come with the libraries
# anyway): left out of the dependency walk
ORACLE_MYSQL_NOT_NEEDED="perl perl-base perl:any debconf debconf-2.0 mysql-common"

oracle_mysql_log() { echo "oracle-mysql: $*"; }

oracle_mysql_fs() { echo "$ORACLE_MYSQL_HOME/root"; }
oracle_mysql_run_dir() { echo "$ORACLE_MYSQL_HOME/run"; }

# The JDBC URL of the server oracle_mysql_start runs, shaped as production's (docker-compose.yml):
# MySQL's default caching_sha2_password needs TLS (or the server's RSA key) for a first login, and
# Connector/J's default sslMode=PREFERRED takes the self-signed certificate --initialize made.
oracle_mysql_url() {
  echo "jdbc:mysql://127.0.0.1:$ORACLE_MYSQL_PORT"
}

# oracle_mysql_closure PACKAGES_FILE PACKAGE: "Filename" of PACKAGE and of everything it depends
# on (first of each set of alternatives, virtual packages through Provides), one a line.
oracle_mysql_closure() {
  awk -v root="$2" -v skip="$ORACLE_MYSQL_NOT_NEEDED" '
    function dep_names(field, names,   parts, n, i, alt) {
      n = split(field, parts, ",")
      for (i = 1; i <= n; i++) {
        alt = parts[i]
        sub(/\|.*/, "", alt); sub(/\(.*/, "", alt); gsub(/[ \t]/, "", alt); sub(/:.*/, "", alt)
        if (alt != "") names[++names[0]] = alt
      }
    }
    /^Package: / { pkg = $2 }
    /^Provides: / { n = split(substr($0, 11), p, ","); for (i = 1; i <= n; i++) { v = p[i]; sub(/\(.*/, "", v); gsub(/ /, "", v); if (!(v in provider)) provider[v] = pkg } }
    /^(Pre-)?Depends: / { deps[pkg] = deps[pkg] "," substr($0, index($0, ":") + 2) }
    /^Filename: / { if (!(pkg in file)) file[pkg] = $2 }
    END {
      n = split(skip, s, " "); for (i = 1; i <= n; i++) skipped[s[i]] = 1
      todo[1] = root; top = 1
      while (top > 0) {
        name = todo[top--]
        if (!(name in file) && (name in provider)) name = provider[name]
        if ((name in seen) || (name in skipped)) continue
        if (!(name in file)) { print "missing " name > "/dev/stderr"; exit 1 }
        seen[name] = 1; print file[name]
        delete names; names[0] = 0; dep_names(deps[name], names)
        for (i = 1; i <= names[0]; i++) todo[++top] = names[i]
      }
    }' "$1"
}

# oracle_mysql_fetch: sid's mysql-server-core and its libraries unpacked under ORACLE_MYSQL_HOME
# (once; a second call finds the unpacked mysqld and does nothing).
oracle_mysql_fetch() {
  local fs debs packages file
  fs="$(oracle_mysql_fs)"
  [[ -x "$fs/usr/sbin/mysqld" ]] && return 0
  debs="$ORACLE_MYSQL_HOME/debs"
  mkdir -p "$debs" "$fs"
  packages="${ORACLE_MYSQL_PACKAGES:-$ORACLE_MYSQL_HOME/Packages.xz}"
  if [[ ! -s "$packages" ]]; then
    oracle_mysql_log "fetching Debian sid's package index"
    curl -fsSL --retry 3 -o "$packages" "$ORACLE_MYSQL_MIRROR/dists/sid/main/binary-amd64/Packages.xz" || return 1
  fi
  xz -dc "$packages" >"$ORACLE_MYSQL_HOME/Packages" || return 1
  oracle_mysql_closure "$ORACLE_MYSQL_HOME/Packages" mysql-server-core >"$ORACLE_MYSQL_HOME/files" || return 1
  oracle_mysql_log "fetching $(wc -l <"$ORACLE_MYSQL_HOME/files") packages from $ORACLE_MYSQL_MIRROR (sid)"
  while read -r file; do
    [[ -s "$debs/${file##*/}" ]] ||
      curl -fsSL --retry 3 -o "$debs/${file##*/}" "$ORACLE_MYSQL_MIRROR/$file" || return 1
    dpkg-deb -x "$debs/${file##*/}" "$fs" || return 1
  done <"$ORACLE_MYSQL_HOME/files"
  [[ -x "$fs/usr/sbin/mysqld" ]] || { echo "oracle-mysql: no usr/sbin/mysqld in the packages" >&2; return 1; }
}

# oracle_mysql_exec PROGRAM ARGS...: a program of the unpacked tree through sid's loader and libraries.
oracle_mysql_exec() {
  local fs program="$1"
  fs="$(oracle_mysql_fs)"
  shift
  "$fs/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
    --library-path "$fs/usr/lib/x86_64-linux-gnu:$fs/lib/x86_64-linux-gnu" \
    "$fs$program" "$@"
}

oracle_mysql_pid() {
  local pidfile
  pidfile="$(oracle_mysql_run_dir)/mysqld.pid"
  [[ -s "$pidfile" ]] || return 1
  local pid
  pid="$(cat "$pidfile")"
  # the recorded pid must still be this tree's mysqld (a pid file outlives a reboot or a kill -9)
  [[ -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$(oracle_mysql_fs)/usr/sbin/mysqld" &&
    echo "$pid"
}

oracle_mysql_up() { (exec 3<>"/dev/tcp/127.0.0.1/$ORACLE_MYSQL_PORT") 2>/dev/null; }

oracle_mysql_args() {
  local fs run
  fs="$(oracle_mysql_fs)"
  run="$(oracle_mysql_run_dir)"
  echo --no-defaults --user="$(id -un)" --basedir="$fs/usr" --datadir="$run/data" \
    --lc-messages-dir="$fs/usr/share/mysql" --character-sets-dir="$fs/usr/share/mysql/charsets" \
    --plugin-dir="$fs/usr/lib/mysql/plugin" --tmpdir="$run/tmp" --secure-file-priv="$run/tmp"
}

# oracle_mysql_initialize: a fresh data folder (root without password, on the socket only) and an
# init file, read at each start, that lets MYSQL_USER in over TCP with the rights bin/lib/stores.sh
# gives it on MariaDB: every privilege on the schemas `flashsale` and `fs_*` (the tests' fs_it_*).
oracle_mysql_initialize() {
  local run user password
  run="$(oracle_mysql_run_dir)"
  mkdir -p "$run/tmp"
  if [[ ! -d "$run/data/mysql" ]]; then
    oracle_mysql_log "initializing $run/data"
    # shellcheck disable=SC2046
    oracle_mysql_exec /usr/sbin/mysqld $(oracle_mysql_args) --initialize-insecure --log-error="$run/initialize.log" ||
      { cat "$run/initialize.log" >&2; return 1; }
  fi
  user="${ORACLE_MYSQL_USER//\'/\'\'}"
  password="${ORACLE_MYSQL_PASSWORD//\'/\'\'}"
  cat >"$run/init.sql" <<SQL
CREATE USER IF NOT EXISTS '$user'@'127.0.0.1' IDENTIFIED BY '$password';
ALTER USER '$user'@'127.0.0.1' IDENTIFIED BY '$password';
GRANT ALL PRIVILEGES ON \`flashsale\`.* TO '$user'@'127.0.0.1';
GRANT ALL PRIVILEGES ON \`fs\\_%\`.* TO '$user'@'127.0.0.1';
SQL
}

# oracle_mysql_start: fetch, initialize and start mysqld on 127.0.0.1:ORACLE_MYSQL_PORT unless it runs.
oracle_mysql_start() {
  local run pid started _
  run="$(oracle_mysql_run_dir)"
  if pid="$(oracle_mysql_pid)"; then
    oracle_mysql_log "already running (pid $pid) on 127.0.0.1:$ORACLE_MYSQL_PORT"
  else
    oracle_mysql_up && { echo "oracle-mysql: port $ORACLE_MYSQL_PORT is taken by another process" >&2; return 1; }
    oracle_mysql_fetch && oracle_mysql_initialize || return 1
    oracle_mysql_log "starting $(oracle_mysql_exec /usr/sbin/mysqld --version) on 127.0.0.1:$ORACLE_MYSQL_PORT"
    # shellcheck disable=SC2046
    oracle_mysql_exec /usr/sbin/mysqld $(oracle_mysql_args) --port="$ORACLE_MYSQL_PORT" --bind-address=127.0.0.1 \
      --socket="$run/mysqld.sock" --pid-file="$run/mysqld.pid" --log-error="$run/mysqld.log" --mysqlx=OFF \
      --init-file="$run/init.sql" --max-connections=600 </dev/null >/dev/null 2>&1 &
    started=$!
    for _ in $(seq 1 120); do
      oracle_mysql_pid >/dev/null && oracle_mysql_up && break
      [[ -d "/proc/$started" ]] || break
      sleep 1
    done
    if ! oracle_mysql_pid >/dev/null || ! oracle_mysql_up; then
      echo "oracle-mysql: mysqld did not answer (it stopped, or 120 s passed), see $run/mysqld.log" >&2
      return 1
    fi
  fi
  echo "MYSQL_URL=$(oracle_mysql_url)"
  echo "MYSQL_USER=$ORACLE_MYSQL_USER"
  echo "MYSQL_PASSWORD=$ORACLE_MYSQL_PASSWORD"
}

# oracle_mysql_stop: SIGTERM to the mysqld oracle_mysql_start recorded, waits until it is gone.
oracle_mysql_stop() {
  local pid _
  pid="$(oracle_mysql_pid)" || { oracle_mysql_log "not running"; return 0; }
  oracle_mysql_log "stopping pid $pid"
  kill -TERM "$pid"
  for _ in $(seq 1 60); do
    [[ -d "/proc/$pid" ]] || return 0
    sleep 1
  done
  echo "oracle-mysql: pid $pid still runs after 60 s" >&2
  return 1
}
