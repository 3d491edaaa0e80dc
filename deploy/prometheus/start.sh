#!/bin/sh
# Entry point of the compose stack's Prometheus: writes the api's metrics token where
# prometheus.yml reads it (credentials_file), readable by Prometheus' own user only, then starts
# Prometheus with the stack's configuration and rules.
set -eu
umask 077
printf '%s' "$FLASHSALE_METRICS_TOKEN" > /prometheus/api-token
exec /bin/prometheus \
  --config.file=/etc/prometheus/prometheus.yml \
  --storage.tsdb.path=/prometheus \
  --storage.tsdb.retention.time="${PROMETHEUS_RETENTION:-15d}"
