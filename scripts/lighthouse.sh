#!/usr/bin/env bash
# Lighthouse (mobile defaults) on every public page of a release server on loopback; prints the four
# scores per page. Needs Debian's chromium; fetches lighthouse from the npm registry with npx.
# Usage: scripts/lighthouse.sh   (after `make build`)
set -euo pipefail
cd "$(dirname "$0")/.."
port=${LIGHTHOUSE_PORT:-18091}
out=$(mktemp -d)
LAUNDRY_ADDR=127.0.0.1:$port LAUNDRY_BASE_URL=http://127.0.0.1:$port RUST_LOG=warn ./target/release/laundry serve &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done

flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
printf '%-14s %6s %6s %6s %6s\n' page perf a11y bp seo
for path in / /pricing /order /tracking /contact /confirmation; do
  name=$(echo "$path" | tr -c 'a-z\n' '_')
  CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium} npx --yes lighthouse@13.5.0 "http://127.0.0.1:$port$path" \
    --quiet --output=json --output-path="$out/$name.json" --chrome-flags="$flags" >/dev/null 2>&1
  node -e '
    const r = require(process.argv[1]);
    const s = (k) => Math.round(r.categories[k].score * 100);
    console.log(process.argv[2].padEnd(14), ...["performance", "accessibility", "best-practices", "seo"].map((k) => String(s(k)).padStart(6)));
  ' "$out/$name.json" "$path"
done
