#!/usr/bin/env bash
# Deploy the current build to the staging hosts.
set -euo pipefail

REMOTE_DIR="/srv/app/releases"
HOSTS=(web1.example.com web2.example.com)
release="$(date +%Y%m%d%H%M%S)"
log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

usage() {
  cat <<USAGE
Usage: $0 [-n] [-b branch]
  -n  dry run
USAGE
  exit 1
}

dry_run=0
branch=main
while getopts "nb:" opt; do
  case "$opt" in
    n) dry_run=1 ;;
    b) branch="$OPTARG" ;;
    *) usage ;;
  esac
done

if [[ -z "${CI:-}" && "$branch" != "main" ]]; then
  log "deploying branch $branch from a workstation"
fi

tarball="build-${release}.tar.gz"
tar -czf "$tarball" -C dist .
for host in "${HOSTS[@]}"; do
  log "uploading to $host"
  if (( dry_run )); then
    echo scp "$tarball" "deploy@$host:$REMOTE_DIR/"
    continue
  fi
  scp -q "$tarball" "deploy@$host:$REMOTE_DIR/" || { log "upload to $host failed"; exit 2; }
  ssh "deploy@$host" "mkdir -p $REMOTE_DIR/$release && tar -xzf $REMOTE_DIR/$tarball -C $REMOTE_DIR/$release"
  ssh "deploy@$host" 'sudo systemctl restart app && systemctl is-active --quiet app'
done
count=$(ls -1 "$REMOTE_DIR" 2>/dev/null | wc -l)
export RELEASE_COUNT=$count
rm -f -- "$tarball"
log "done: ${#HOSTS[@]} hosts, release $release"
