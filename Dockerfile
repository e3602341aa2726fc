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
# libvips42's Depends (not Recommends) bring ImageMagick, poppler, libheif, libjxl and OpenSlide
# (19 packages, with x265, aom, dav1d, nss) for the loader modules libvips dlopens at start-up;
# the service blocks every loader but PNG, JPEG and WebP, so it needs none of them. libvips42 is
# therefore unpacked from its .deb, library only (no vips-modules-8.14), and the packages that
# libvips.so.42 itself links are installed by name (the list: `readelf -d` of libvips.so.42,
# checked against the binary's ldd by .ci/check-runtime-deps.sh).
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libstdc++6 libzip4 \
      libcairo2 libcfitsio10 libcgif0 libexif12 libexpat1 libfftw3-double3 libfontconfig1 \
      libglib2.0-0 libgsf-1-114 libimagequant0 libjpeg62-turbo liblcms2-2 libmatio11 \
      libopenexr-3-1-30 libopenjp2-7 liborc-0.4-0 libpango-1.0-0 libpangocairo-1.0-0 \
      libpangoft2-1.0-0 libpng16-16 librsvg2-2 libtiff6 libwebp7 libwebpdemux2 libwebpmux3 zlib1g \
 && cd /tmp && apt-get download libvips42 \
 && dpkg-deb -x libvips42_*.deb /tmp/libvips42 \
 && cp -a /tmp/libvips42/usr/lib/*-linux-gnu/libvips.so.42* "/usr/lib/$(uname -m)-linux-gnu/" \
 && ldconfig \
 && rm -rf /tmp/libvips42 /tmp/libvips42_*.deb /var/lib/apt/lists/* \
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
