// swift-tools-version:6.0
// ContrastService: WCAG/APCA contrast and Apple dark-mode palette calculator as a JSON HTTP API.
// No outside Swift packages: only the toolchain and Debian C libraries (system-library targets).
//
// Layers (docs/architecture.md): ColorScience (pure color science) ← AppleDesign (Apple's model)
// ← ContrastAPI (the only place that knows colors and HTTP) → HTTPServer (no color knowledge).
// The executables in Sources/Executables stay thin; C libraries sit in Sources/System.
import PackageDescription

let package = Package(
    name: "ContrastService",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "contrast-server", targets: ["contrast-server"]),
        .library(name: "ColorScience", targets: ["ColorScience"]),
        .library(name: "AppleDesign", targets: ["AppleDesign"]),
    ],
    targets: [
        // Pure color science: parsing, conversions, luminance, contrast, compositing. No I/O, no
        // JSON, no HTTP, no Apple names.
        .target(name: "ColorScience"),
        // Apple's design model on top of the core: system colors, Dynamic Type, materials, the
        // audit policy, dark and increased-contrast variants, table stripes. No I/O, no JSON.
        .target(name: "AppleDesign", dependencies: ["ColorScience"]),

        // Design-token and theme files: the formats (DTCG, Tokens Studio, Style Dictionary, Figma
        // Variables, CSS, Tailwind, Material), aliases and modes, pair rules and presets, the
        // contrast audit of a design system. No HTTP.
        .target(name: "DesignTokens", dependencies: ["ColorScience", "AppleDesign", "JSONValue"]),

        // Strict RFC 8259 JSON values: ordered objects, exact types, JSON-pointer error locations.
        .target(name: "JSONValue"),

        // HTTP server wrapper: the libmicrohttpd daemon, routing, middleware, static files. No
        // color knowledge.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CMicroHTTPDShim", "CZlib", "JSONValue"]),

        // Image decode/encode, luminance statistics, white-background detection, dim rule. No HTTP.
        .target(name: "ImageProcessing", dependencies: ["ColorScience", "CVipsShim"]),

        // The API: endpoints, validation, JSON, problem details. The only place that knows both.
        .target(
            name: "ContrastAPI",
            dependencies: ["ColorScience", "AppleDesign", "DesignTokens", "HTTPServer", "JSONValue", "ImageProcessing", "CZipShim"],
            resources: [.copy("Resources/apple_system_colors.json"), .copy("Resources/apple_hig_supplement.json"), .copy("Resources/openapi.json"),
                        .copy("Resources/problem_types.json")]
        ),

        // --- Executables (Sources/Executables) ---
        // Thin executable: configuration, signals, start.
        .executableTarget(name: "contrast-server", dependencies: ["ContrastAPI", "HTTPServer"],
                          path: "Sources/Executables/contrast-server"),
        // bench/run: the color core timed without HTTP (compared with bench/core.c).
        .executableTarget(name: "contrast-core-bench", dependencies: ["ColorScience"],
                          path: "Sources/Executables/contrast-core-bench"),
        // bench/image-bench's in-process runner (decode + dim + encode); not part of the service.
        .executableTarget(name: "image-bench-runner", dependencies: ["ImageProcessing", "ColorScience"],
                          path: "Sources/Executables/image-bench-runner"),

        // --- C libraries from Debian and their shims (Sources/System) ---
        // libmicrohttpd (libmicrohttpd-dev), dynamically linked (LGPL).
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/System/CMicroHTTPD",
                       pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // Non-variadic, prefixed wrappers for MHD's variadic C functions.
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"], path: "Sources/System/CMicroHTTPDShim"),
        // zlib (zlib1g-dev) for gzip content coding of large responses.
        .systemLibrary(name: "CZlib", path: "Sources/System/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libvips (libvips-dev; runtime libvips42): PNG, JPEG, WebP, ICC via lcms2.
        .systemLibrary(name: "CVips", path: "Sources/System/CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // Non-variadic, prefixed wrappers for libvips's variadic calls, plus lcms2 tone-curve reads
        // and an lcms2 optimization plugin, and zlib for the PNG chunk check (inflated size, CRC).
        // Links libjpeg itself (libjpeg-dev, a dependency of libvips-dev) for one check libvips misses.
        .target(name: "CVipsShim", dependencies: ["CVips"], path: "Sources/System/CVipsShim",
                linkerSettings: [.linkedLibrary("lcms2"), .linkedLibrary("z"), .linkedLibrary("jpeg")]),
        // libzip (libzip-dev; runtime libzip4): zip archives of /v1/palette/export.
        .systemLibrary(name: "CZip", path: "Sources/System/CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        // Prefixed wrappers: build a zip archive in memory and read one back.
        .target(name: "CZipShim", dependencies: ["CZip"], path: "Sources/System/CZipShim"),

        // --- Tests ---
        // What the test targets share: the one raw HTTP client, the one fixture loader
        // (Tests/Fixtures), polling instead of sleeping, and the servers on port 0 (bare HTTP
        // layer, the service in-process, the built executable). A library, not a test target.
        .target(name: "TestSupport", dependencies: ["ContrastAPI", "HTTPServer", "JSONValue"], path: "Tests/TestSupport"),

        .testTarget(name: "ColorScienceTests", dependencies: ["ColorScience", "TestSupport"]),
        .testTarget(name: "AppleDesignTests", dependencies: ["AppleDesign", "ColorScience", "TestSupport"]),
        .testTarget(name: "DesignTokensTests", dependencies: ["DesignTokens", "ColorScience", "JSONValue", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "JSONValue", "TestSupport"]),
        .testTarget(name: "JSONValueTests", dependencies: ["JSONValue"]),
        .testTarget(name: "ContrastAPITests", dependencies: ["ContrastAPI", "HTTPServer", "ColorScience", "AppleDesign", "JSONValue", "contrast-server", "ImageProcessing", "TestSupport"]),
        .testTarget(name: "ImageProcessingTests", dependencies: ["ImageProcessing", "ColorScience", "TestSupport"]),
    ]
)
