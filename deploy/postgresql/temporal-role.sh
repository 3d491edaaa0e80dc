# shellcheck shell=bash
# Sourced by the postgres image's entrypoint on the first start (empty data directory), as the
# superuser postgres over the container's socket: creates Temporal's login role `temporal`, which
# may create databases and nothing more (no superuser), as bin/lib/stores.sh does for the tests'
# cluster. temporal-schema then creates Temporal's two databases as `temporal`, which owns them.
#
# The image has just given postgres the password POSTGRES_PASSWORD (TEMPORAL_POSTGRES_PASSWORD in
# docker-compose.yml): it becomes temporal's, and postgres loses it, so the superuser logs in only
# from inside the container (docker compose exec postgresql psql -U postgres).

password=${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}
docker_process_sql --dbname postgres --set password="$password" <<'EOSQL'
CREATE ROLE temporal LOGIN CREATEDB PASSWORD :'password';
ALTER ROLE postgres PASSWORD NULL;
EOSQL
unset password
