#!/usr/bin/env bash
# Rotate the ledger-sync DB password: new value into Secrets Manager, ESO picks it up.
set -euo pipefail

env="${1:?usage: rotate-ledger-secret.sh <staging|prod>}"
secret_id="${env}/ledger-sync/db"

current="$(aws secretsmanager get-secret-value --secret-id "$secret_id" --query SecretString --output text)"
db_host="$(jq -r '.host' <<<"$current")"
new_password="$(openssl rand -base64 32 | tr -d '/+=' | cut -c1-32)"

psql "host=${db_host} dbname=ledger user=admin" -v ON_ERROR_STOP=1 \
  -c "ALTER ROLE ledger_sync WITH PASSWORD '${new_password}';"

payload="$(jq -c --arg pw "$new_password" '.password = $pw | .url = "postgres://ledger_sync:\($pw)@\(.host)/ledger"' <<<"$current")"
aws secretsmanager put-secret-value --secret-id "$secret_id" --secret-string "$payload"

# Read-only check that the ExternalSecret refreshed (ESO refreshInterval is 1h; force via annotation in git if needed).
kubectl --context "$env" -n ledger-sync get externalsecret ledger-sync-db -o jsonpath='{.status.refreshTime}'
echo
