# syntax=docker/dockerfile:1
# Build: official Swift image on Debian 12 (bookworm); the Swift runtime is linked statically.
ARG SWIFT_VERSION=6.3
FROM swift:${SWIFT_VERSION}-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd-dev pkg-config libvips-dev libzip-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
# SwiftPM refuses a manifest whose test targets have no folders, so the tests come along.
COPY Tests ./Tests
# The binary and its SwiftPM resource bundle (Apple reference data) go side by side.
RUN swift build -c release --static-swift-stdlib --product contrast-server \
 && install -D .build/release/contrast-server /out/contrast-server \
 && cp -R .build/release/ContrastService_ContrastAPI.resources /out/

# Run: slim Debian with the C libraries only (libmicrohttpd and libvips are LGPL, linked dynamically).
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libstdc++6 libvips42 libzip4 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin contrast
WORKDIR /app
COPY --from=build /out/ /usr/local/bin/
COPY config.json ./config.json
COPY Public ./Public
# Listen on all interfaces inside the container; everything else comes from config.json.
ENV CONTRAST_HOST=0.0.0.0
USER 10001:10001
EXPOSE 8080
# No curl in the image: the binary probes its own /healthz.
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 CMD ["contrast-server", "--healthcheck"]
ENTRYPOINT ["contrast-server"]
