#!/bin/sh
# Renders public/logo.png, public/favicon.svg and the PWA icons of public/icons/ from this folder
# with headless Chromium screenshots. Run from anywhere: sh src/brand/render.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
public="$here/../../public"
chromium_bin=${CHROMIUM:-chromium}
mkdir -p "$public/icons"
shot() { # output size query
  "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-background-networking --hide-scrollbars \
    --default-background-color=00000000 --window-size="$2,$2" --screenshot="$1" "file://$here/icon.html$3" 2>/dev/null
  echo "${1#"$public/"}"
}
shot "$public/logo.png" 128 ''
shot "$public/icons/icon-192.png" 192 ''
shot "$public/icons/icon-512.png" 512 ''
shot "$public/icons/icon-maskable-512.png" 512 '?maskable'
cp "$here/favicon.svg" "$public/favicon.svg"
echo favicon.svg
