#!/bin/sh
# Run by temporal-init (docker-compose.yml) once the Temporal server is up: creates the namespace
# $NAMESPACE when missing and registers the purchase search attributes (Keyword). Safe to run again.
#
# Each step looks first (namespace describe, search-attribute list) and creates only what the
# answer lacks, and the whole step is tried again until it holds (30 tries, 2 s apart). So a look
# that fails for a moment, or a create that meets what an earlier try already made, costs one more
# try; an error that stays (an attribute of another type, no free Keyword field) fails the service
# with the server's message.
set -eu

attributes="SaleId UserId PurchaseStatus"

retry() {
  tries=1
  until "$@"; do
    if [ "$tries" -ge 30 ]; then
      echo "gave up after $tries tries: $*" >&2
      return 1
    fi
    tries=$((tries + 1))
    sleep 2
  done
}

namespace_exists() {
  temporal operator namespace describe -n "$NAMESPACE" >/dev/null 2>&1
}

ensure_namespace() {
  namespace_exists || temporal operator namespace create -n "$NAMESPACE" --retention 72h
}

# The namespace lists search attribute $1 with type Keyword.
has_keyword() {
  temporal operator search-attribute list -n "$NAMESPACE" \
    | grep -Eq "^[[:space:]]*$1[[:space:]]+Keyword[[:space:]]*\$"
}

ensure_keyword() {
  has_keyword "$1" || temporal operator search-attribute create -n "$NAMESPACE" --name "$1" --type Keyword
}

retry temporal operator cluster health
retry ensure_namespace
for name in $attributes; do
  retry ensure_keyword "$name"
done
# A new attribute reaches every Temporal service with the namespace cache (refreshed every 2 s).
for name in $attributes; do
  retry has_keyword "$name"
done
echo "namespace $NAMESPACE ready, search attributes: $attributes"
