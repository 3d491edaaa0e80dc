#!/bin/sh
# Run by temporal-schema (docker-compose.yml) before the Temporal server starts: creates Temporal's
# two schemas when missing and brings them to the version of this admin-tools image. Every step is
# idempotent, so it is safe to run again, and any error fails the service. temporal-sql-tool reads
# its connection from SQL_PLUGIN, SQL_HOST, SQL_PORT, SQL_USER and SQL_PASSWORD.
set -eu

schemas=/etc/temporal/schema/mysql/v8
for db in temporal temporal_visibility; do
  temporal-sql-tool --db "$db" create
  temporal-sql-tool --db "$db" setup-schema -v 0.0
done
temporal-sql-tool --db temporal update-schema -d "$schemas/temporal/versioned"
temporal-sql-tool --db temporal_visibility update-schema -d "$schemas/visibility/versioned"
echo "Temporal schemas ready"
