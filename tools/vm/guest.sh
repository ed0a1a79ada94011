#!/bin/sh
# Boot the real-kernel test guest by hand (tools/vm/cli.ts, bundled with the project's esbuild).
#   tools/vm/guest.sh serve              guest + host cockpit-ws, prints the page URL
#   tools/vm/guest.sh run 'cat /proc/mdstat' 'mdadm --version'
#   tools/vm/guest.sh shell              shell in the running guest (or a new one)
# Needs tools/vm/build-guest.sh first (and `node build.mjs` for the plugin page).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT=${RAIDTUNE_VM_BUILD:-$REPO/build/vm}/cli.mjs
mkdir -p "$(dirname "$OUT")"
"$REPO/node_modules/.bin/esbuild" "$HERE/cli.ts" --bundle --platform=node --format=esm --target=node20 \
    --packages=external --log-level=warning --outfile="$OUT"
cd "$REPO"
exec node "$OUT" "$@"
