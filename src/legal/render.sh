#!/bin/sh
# Renders the legal documents of public/ (agreement.pdf, policy.pdf, oferta.pdf) from the HTML
# sources of this folder with headless Chromium. Run from anywhere: sh src/legal/render.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
public="$here/../../public"
chromium_bin=${CHROMIUM:-chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/legal.css" "$work/"
for doc in agreement policy oferta; do
  # The requisites block is shared: paste it where the document asks for it.
  awk -v block="$here/requisites.html" '/<!--REQUISITES-->/ { while ((getline line < block) > 0) print line; next } { print }' \
    "$here/$doc.html" > "$work/$doc.html"
  "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --no-pdf-header-footer --print-to-pdf="$public/$doc.pdf" "file://$work/$doc.html" 2>/dev/null
  echo "public/$doc.pdf"
done
