#!/usr/bin/env bash
# No Docker engine runs here, so check the Dockerfile the way it matters: build the release binary
# as the Dockerfile does (--static-swift-stdlib), list the shared libraries it loads (ldd), find the
# Debian package of each, and require that every one is installed by the runtime stage: named in
# its `apt-get install` line, pulled in by those packages' dependencies, or of priority required
# (always present in debian:bookworm-slim).
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --static-swift-stdlib --product contrast-server 2>&1 | tail -n 2
bin=.build/release/contrast-server

# Runtime packages: the apt-get install line(s) of the final stage.
runtime=$(awk '/^FROM /{stage++} {print stage "\t" $0}' Dockerfile | awk -F'\t' -v last="$(grep -c '^FROM ' Dockerfile)" '$1==last {print $2}' \
  | grep -oE 'apt-get install[^&]*' | sed -E 's/apt-get install//; s/-[-a-z]+//g; s/\\//g' | tr ' ' '\n' | grep -E '^[a-z0-9][a-z0-9.+-]+$' | sort -u)
echo "runtime stage installs: $(echo $runtime)"
provided=$( (echo "$runtime"; apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances $runtime 2>/dev/null | grep -E '^[a-z0-9]' ) | sed 's/:.*//' | sort -u)

missing=0
while read -r lib path; do
  [ -z "$path" ] && continue
  real=$(readlink -f "$path")
  pkg=$(dpkg -S "$real" 2>/dev/null | head -n1 | cut -d: -f1 || true)
  [ -z "$pkg" ] && pkg=$(dpkg -S "$path" 2>/dev/null | head -n1 | cut -d: -f1 || true)
  if [ -z "$pkg" ]; then echo "MISSING  $lib ($path): not from any Debian package"; missing=1; continue; fi
  prio=$(apt-cache show "$pkg" 2>/dev/null | awk '/^Priority:/{print $2; exit}')
  if echo "$provided" | grep -qx "$pkg"; then echo "ok       $lib <- $pkg (runtime stage)"
  elif [ "$prio" = required ]; then echo "ok       $lib <- $pkg (priority required, in the base image)"
  else echo "MISSING  $lib <- $pkg: add it to the runtime stage's apt-get install"; missing=1; fi
done < <(ldd "$bin" | awk '/=>/ {print $1, $3} !/=>/ && /\// {print $1, $1}')

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
