#!/usr/bin/env bash
# Renders the images the server serves at fixed addresses from their SVG sources in server/static/,
# with Debian's Chromium: og-image.png (1200×630, the picture WhatsApp and others show with a shared
# link) and favicon.ico (32×32 and 16×16 PNGs in one ICO file). Run it after changing a source and
# commit the results; the server embeds them at build time.
set -euo pipefail
cd "$(dirname "$0")/../server/static"
chromium=${CHROMIUM_PATH:-chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Renders SVG file $1 at $2×$3 pixels into PNG file $4.
render() {
  printf '<!doctype html><style>html,body{margin:0;overflow:hidden}img{display:block}</style><img src="%s" width="%s" height="%s">' \
    "file://$PWD/$1" "$2" "$3" >"$work/page.html"
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --window-size="$2,$3" --screenshot="$4" "file://$work/page.html" >/dev/null 2>&1
}

render og-image.svg 1200 630 og-image.png
render favicon.svg 32 32 "$work/32.png"
render favicon.svg 16 16 "$work/16.png"

# An ICO file: a header, one directory entry per image, then the PNGs as they are.
python3 - "$work/32.png" "$work/16.png" <<'PY'
import struct, sys
images = [open(path, "rb").read() for path in sys.argv[1:]]
sizes = [32, 16]
offset = 6 + 16 * len(images)
out = struct.pack("<HHH", 0, 1, len(images))
for size, data in zip(sizes, images):
    out += struct.pack("<BBBBHHII", size, size, 0, 0, 1, 32, len(data), offset)
    offset += len(data)
open("favicon.ico", "wb").write(out + b"".join(images))
PY
echo "wrote server/static/og-image.png and server/static/favicon.ico"
