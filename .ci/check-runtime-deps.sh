#!/usr/bin/env bash
# No Docker engine runs here, so check the Dockerfile the way it matters: build the release binary
# as the Dockerfile does (--static-swift-stdlib), list the shared libraries it loads (ldd), find the
# Debian package of each, and require that every one is provided by the runtime stage: named in
# its `apt-get install` line, pulled in by those packages' dependencies, of priority required
# (always present in debian:bookworm-slim), or unpacked from a package the stage fetches with
# `apt-get download` (libvips42: its library without its Depends, whose soname the stage must copy).
# Also: libvips's untrusted-loader libraries (ImageMagick, poppler, ...) must not come back.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --static-swift-stdlib --product contrast-server 2>&1 | tail -n 2
bin=.build/release/contrast-server

# The final stage, with backslash-continued lines joined.
stage=$(awk '/^FROM /{stage++} {print stage "\t" $0}' Dockerfile | awk -F'\t' -v last="$(grep -c '^FROM ' Dockerfile)" '$1==last {print $2}' \
  | sed -e ':a' -e '/\\$/N; s/\\\n//; ta')
# Packages named after `apt-get install` / `apt-get download`, up to the next `&&`.
packages() {
  echo "$stage" | grep -oE "apt-get $1[^&]*" | sed -E "s/apt-get $1//; s/(^| )-[-a-zA-Z]+//g" | tr ' ' '\n' \
    | grep -E '^[a-z0-9][a-z0-9.+-]+$' | sort -u
}
runtime=$(packages install)
unpacked=$(packages download)
echo "runtime stage installs: $(echo $runtime)"
echo "runtime stage unpacks (library only, without its Depends): $(echo $unpacked)"
closure=$( (echo "$runtime"; apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances $runtime 2>/dev/null | grep -E '^[a-z0-9]' ) | sed 's/:.*//' | sort -u)
provided=$(printf '%s\n%s\n' "$closure" "$unpacked" | grep . | sort -u)
echo "runtime stage packages (with dependencies, virtual names included): $(echo "$closure" | wc -l)"

missing=0
while read -r lib path; do
  [ -z "$path" ] && continue
  real=$(readlink -f "$path")
  pkg=$(dpkg -S "$real" 2>/dev/null | head -n1 | cut -d: -f1 || true)
  [ -z "$pkg" ] && pkg=$(dpkg -S "$path" 2>/dev/null | head -n1 | cut -d: -f1 || true)
  if [ -z "$pkg" ]; then echo "MISSING  $lib ($path): not from any Debian package"; missing=1; continue; fi
  prio=$(apt-cache show "$pkg" 2>/dev/null | awk '/^Priority:/{print $2; exit}')
  if echo "$unpacked" | grep -qx "$pkg"; then
    if echo "$stage" | grep -qF "$lib"; then echo "ok       $lib <- $pkg (unpacked by the runtime stage)"
    else echo "MISSING  $lib <- $pkg: the runtime stage unpacks $pkg but does not copy $lib"; missing=1; fi
  elif echo "$provided" | grep -qx "$pkg"; then echo "ok       $lib <- $pkg (runtime stage)"
  elif [ "$prio" = required ]; then echo "ok       $lib <- $pkg (priority required, in the base image)"
  else echo "MISSING  $lib <- $pkg: add it to the runtime stage's apt-get install"; missing=1; fi
done < <(ldd "$bin" | awk '/=>/ {print $1, $3} !/=>/ && /\// {print $1, $1}')

# libvips's loaders for untrusted formats stay out of the image (they are blocked in-process too).
for pkg in libmagickcore-6.q16-6 libpoppler126 libpoppler-glib8 libheif1 libjxl0.7 libopenslide0; do
  if echo "$closure" | grep -qx "$pkg"; then echo "UNWANTED $pkg: an untrusted-loader library is back in the runtime stage"; missing=1; fi
done

# The resource bundle must exist beside the release binary and be copied into the image.
bundle=.build/release/ContrastService_ContrastAPI.resources
if [ ! -d "$bundle" ]; then echo "MISSING  $bundle (SwiftPM resource bundle)"; missing=1
elif ! grep -q 'ContrastService_ContrastAPI.resources' Dockerfile; then echo "MISSING  the Dockerfile does not copy $bundle"; missing=1
else echo "ok       resource bundle $(ls "$bundle" | tr '\n' ' ')"; fi
# SwiftPM needs every declared target's folder in the build stage.
for dir in Sources Tests; do
  grep -qE "^COPY $dir " Dockerfile || { echo "MISSING  the build stage does not COPY $dir"; missing=1; }
done

if [ "$missing" != 0 ]; then echo "runtime dependency check FAILED"; exit 1; fi
echo "runtime dependency check passed"
