#!/bin/sh
# Run by temporal-schema (docker-compose.yml) before the Temporal server starts: creates Temporal's
# two databases on PostgreSQL when missing and brings each to the version of this admin-tools
# image, from the schemas embedded in temporal-sql-tool, as the tests' cluster does (module
# launcher, Schema). Every step is idempotent, so it is safe to run again, and any error
# fails the service. temporal-sql-tool reads its connection from SQL_PLUGIN, SQL_HOST, SQL_PORT,
# SQL_USER and SQL_PASSWORD.
set -eu

# PostgreSQL has no CREATE DATABASE IF NOT EXISTS: the tool fails on a database that exists.
create_database() {
  if ! output=$(temporal-sql-tool --db "$1" create-database 2>&1); then
    case "$output" in
      *"already exists"*) echo "database $1 exists" ;;
      *)
        echo "$output" >&2
        return 1
        ;;
    esac
  fi
}

# $1 database, $2 its embedded schema
apply_schema() {
  create_database "$1"
  # version 0.0 only creates the versioning tables; update-schema applies every version after it
  temporal-sql-tool --db "$1" setup-schema -v 0.0
  temporal-sql-tool --db "$1" update-schema --schema-name "postgresql/v12/$2"
}

apply_schema temporal temporal
apply_schema temporal_visibility visibility
echo "Temporal schemas ready"
