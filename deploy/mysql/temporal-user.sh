# shellcheck shell=bash
# Sourced by the mysql image's entrypoint on the first start (empty data directory), after it has
# created the app's database and user (MYSQL_DATABASE, MYSQL_USER, with rights on that database
# only): creates Temporal's user `temporal` with rights on Temporal's two schemas only. Its
# password comes from TEMPORAL_MYSQL_PASSWORD (docker-compose.yml).

temporal_password=${TEMPORAL_MYSQL_PASSWORD:?TEMPORAL_MYSQL_PASSWORD is required}
temporal_password=${temporal_password//\\/\\\\}
temporal_password=${temporal_password//\'/\\\'}

mysql_note "Creating user temporal with rights on the schemas temporal and temporal_visibility"
# `_` matches any character in a GRANT's schema name, hence temporal\_visibility
docker_process_sql --database=mysql <<EOSQL
CREATE DATABASE IF NOT EXISTS temporal;
CREATE DATABASE IF NOT EXISTS temporal_visibility;
CREATE USER 'temporal'@'%' IDENTIFIED BY '${temporal_password}';
GRANT ALL ON \`temporal\`.* TO 'temporal'@'%';
GRANT ALL ON \`temporal\_visibility\`.* TO 'temporal'@'%';
EOSQL
unset temporal_password
