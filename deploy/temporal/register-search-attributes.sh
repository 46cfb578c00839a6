#!/bin/sh
# Registers Klaxon's custom search attributes (docs/architecture.md, "Incidents") on a Temporal server.
# Run by the `temporal-search-attributes` one-shot service of docker-compose.yml, in the
# temporalio/admin-tools image (Alpine: POSIX sh, `temporal` CLI). Safe to run any number
# of times: attributes that already exist with type Keyword are left alone.
#
# Keep the list in step with `searchAttributes` in src/contracts/workflows.ts.
set -eu

ADDRESS="${TEMPORAL_ADDRESS:-temporal:7233}"
NAMESPACE="${TEMPORAL_NAMESPACE:-default}"
ATTRIBUTES="${KLAXON_SEARCH_ATTRIBUTES:-KlaxonOrganizationId KlaxonServiceId KlaxonIncidentStatus KlaxonSeverity}"
WAIT_SECONDS="${WAIT_SECONDS:-300}"

log() { echo "[search-attributes] $*"; }

deadline=$(( $(date +%s) + WAIT_SECONDS ))

# wait_for <what> <command...>: retries the command every 2 s until it succeeds or the
# deadline passes (then exits 1, which fails `docker compose up` with a clear message).
wait_for() {
  what=$1
  shift
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      log "gave up after ${WAIT_SECONDS}s waiting for ${what} (address ${ADDRESS})"
      exit 1
    fi
    log "waiting for ${what}..."
    sleep 2
  done
}

server_serving() {
  temporal operator cluster health --address "$ADDRESS" | grep -q SERVING
}

list_attributes() {
  temporal operator search-attribute list --namespace "$NAMESPACE" --address "$ADDRESS"
}

# The line describing one attribute, or nothing (word match: names are distinct words).
attribute_line() {
  list_attributes 2>/dev/null | grep -w -- "$1" || true
}

all_listed() {
  listing=$(list_attributes 2>/dev/null) || return 1
  for name in $ATTRIBUTES; do
    printf '%s\n' "$listing" | grep -qw -- "$name" || return 1
  done
}

# The server answers health checks before auto-setup has created the namespace (it does
# so in the background after start-up); listing attributes fails until the namespace exists.
wait_for "the Temporal frontend" server_serving
wait_for "namespace ${NAMESPACE}" list_attributes

for name in $ATTRIBUTES; do
  line=$(attribute_line "$name")
  if [ -z "$line" ]; then
    if output=$(temporal operator search-attribute create --namespace "$NAMESPACE" --address "$ADDRESS" \
      --name "$name" --type Keyword 2>&1); then
      log "registered ${name} (Keyword)"
      continue
    fi
    # A concurrent run (or an earlier attempt that timed out client-side) may have won.
    line=$(attribute_line "$name")
    if [ -z "$line" ] && ! printf '%s\n' "$output" | grep -qi 'already exist'; then
      log "could not register ${name}: ${output}"
      exit 1
    fi
  fi
  if [ -n "$line" ] && ! printf '%s\n' "$line" | grep -qi keyword; then
    log "${name} exists with another type (${line}); Klaxon needs Keyword. Remove it first."
    exit 1
  fi
  log "${name} already registered"
done

# Registration is written to the database at once, but the frontend and history caches
# refresh on their own schedule; wait until the list shows every attribute so that the
# first incident workflow started by the worker is not refused.
wait_for "the new search attributes to be listed" all_listed
log "done: ${ATTRIBUTES} on namespace ${NAMESPACE}"
