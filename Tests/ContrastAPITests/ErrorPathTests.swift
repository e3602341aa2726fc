import ContrastAPI
import Foundation
import ImageProcessing
import JSONValue
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Problem types that had no test (issue 21), each triggered for real and checked by its type:
/// the bundled resources missing beside the executable, libvips and libzip failing inside the
/// built server (a preloaded library makes `vips_init` and `zip_close` fail, as a broken install
/// or a full disk would), an image the service cannot encode, and document-dependent CSS.
/// (`server-busy` is in ConnectionLimitTests.)
@Suite(.serialized) struct ErrorPathTests {
    // MARK: In-process

    /// Valid CSS that depends on a document is a 422 `unsupported-color` naming the field, not
    /// a 400 `invalid-color`.
    @Test func documentDependentColorsAreUnsupportedColor() {
        for value in ["currentcolor", "Canvas", "inherit"] {
            let r = call("GET", "/v1/contrast?foreground=\(q(value))&background=white")
            let j = expectProblem(r, 422, kind: "unsupported-color")
            #expect(j["parameter"] == "foreground", "\(value): \(r.text)")
        }
        let body = call("POST", "/v1/contrast", body: ##"{"foreground": "#000", "background": "currentColor"}"##)
        let j = expectProblem(body, 422, kind: "unsupported-color")
        #expect(j["pointer"] == "/background", "\(body.text)")
    }

    /// A valid PNG too wide for the WebP it asks for: 422 `unsupported-image`, naming `format`.
    @Test func tooWideForWebPIsUnsupportedImage() throws {
        let png = try ImageSamples.encode(.png, width: 16_384, height: 1)
        let r = callImage("/v1/image/dim?format=webp", png)
        let j = expectProblem(r, 422, kind: "unsupported-image")
        #expect(j["parameter"] == "format" && j["detail"]?.string?.contains("16383") == true, "\(r.text)")
        // The same image as PNG is fine.
        #expect(callImage("/v1/image/dim?format=png", png).status == 200)
    }

    // MARK: The built server, broken from outside

    /// The executable copied alone, without `ContrastService_ContrastAPI.resources` beside it
    /// (a container that copied only the binary): it still starts and serves what needs no
    /// resources, and the routes that need them answer their 500 problems.
    @Test func missingResourceBundleIsReferenceDataAndOpenAPIUnavailable() throws {
        let built = try #require(ServerProcess.binary, "contrast-server is not built next to the tests")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nobundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let alone = dir.appendingPathComponent("contrast-server")
        try FileManager.default.copyItem(at: built, to: alone)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("ContrastService_ContrastAPI.resources").path))
        let server = try ServerProcess(executable: alone, environment: ["CONTRAST_PUBLIC_DIRECTORY": repositoryRoot.appendingPathComponent("Public").path],
                                       directory: dir)
        let port = try server.waitForPort()
        func get(_ target: String, body: String? = nil) throws -> Reply {
            try RawHTTP.exchange(port: port, RawHTTP.request(body == nil ? "GET" : "POST", target,
                                                             headers: body == nil ? [] : ["Content-Type: application/json"], body: body)).reply
        }
        #expect(try get("/v1/contrast?foreground=%23777&background=white").status == 200)
        let openapi = expectProblem(try get("/openapi.json"), 500, kind: "openapi-unavailable")
        #expect(openapi["detail"]?.string?.contains("ContrastService_ContrastAPI.resources") == true, "\(openapi)")
        let colors = expectProblem(try get("/v1/system-colors"), 500, kind: "reference-data-unavailable")
        #expect(colors["detail"]?.string?.contains("ContrastService_ContrastAPI.resources") == true, "\(colors)")
        expectProblem(try get("/v1/palette/dark", body: ##"{"colors": [{"name": "t", "color": "#333333"}]}"##), 500, kind: "reference-data-unavailable")
        // An Apple name is the missing data's problem, not a misspelt CSS color (it had been
        // "unknown color name 'systemBlue'; did you mean the CSS color 'slateblue'?").
        expectProblem(try get("/v1/contrast?foreground=systemBlue&background=white"), 500, kind: "reference-data-unavailable")
        expectProblem(try get("/v1/contrast", body: ##"{"foreground": "UIColor.label", "background": "#fff"}"##), 500, kind: "reference-data-unavailable")
        #expect(try get("/v1/contrast?foreground=slateblue&background=white").status == 200)
        // The start-up log says what is missing before any request does.
        #expect(server.log.contains("the Apple reference data cannot be loaded") && server.log.contains("/openapi.json answers 500"), "\(server.log)")
        server.terminate()
        #expect(server.terminationStatus == 0, "\(server.log)")
    }

    /// libvips that cannot start (`vips_init` fails): the image routes answer 503
    /// `image-processing-unavailable`, the rest of the service works.
    @Test func libvipsThatCannotStartIsImageProcessingUnavailable() throws {
        // vips_init runs, then reports a failure with a reason in libvips's error buffer, as a
        // start-up that cannot load its operations would.
        let preload = try Self.failingLibrary("vips", source: """
            #define _GNU_SOURCE
            #include <dlfcn.h>
            extern void vips_error(const char *domain, const char *fmt, ...);
            int vips_init(const char *argv0) {
                int (*real)(const char *) = (int (*)(const char *))dlsym(RTLD_NEXT, "vips_init");
                if (real != 0) real(argv0);
                vips_error("contrast-test", "simulated start-up failure");
                return -1;
            }

            """)
        let server = try ServerProcess(environment: ["LD_PRELOAD": preload.path])
        let port = try server.waitForPort()
        let png = try ImageSamples.encode(.png)
        var request = Array("POST /v1/image/analyze HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: image/png\r\nContent-Length: \(png.count)\r\n\r\n".utf8)
        request += png
        let r = try RawHTTP.exchange(port: port, request).reply
        let j = expectProblem(r, 503, kind: "image-processing-unavailable")
        #expect(j["detail"]?.string?.contains("libvips did not start") == true && j["detail"]?.string?.contains("simulated start-up failure") == true, "\(r.text)")
        #expect(try RawHTTP.exchange(port: port, RawHTTP.request("GET", "/v1/contrast?foreground=%23777&background=white")).status == 200)
        server.terminate()
    }

    /// libzip that cannot write the archive (`zip_close` fails): the zip exports answer 500
    /// `archive-failed`; the text formats still work.
    @Test func libzipThatCannotWriteIsArchiveFailed() throws {
        let preload = try Self.failingLibrary("zip", source: "int zip_close(void *archive) { (void)archive; return -1; }\n")
        let server = try ServerProcess(environment: ["LD_PRELOAD": preload.path])
        let port = try server.waitForPort()
        func export(_ format: String) throws -> Reply {
            let body = ##"{"format": "\##(format)", "colors": [{"name": "text", "color": "#333333"}]}"##
            return try RawHTTP.exchange(port: port, RawHTTP.request("POST", "/v1/palette/export", headers: ["Content-Type: application/json"], body: body)).reply
        }
        for format in ["xcassets", "android"] {
            let r = try export(format)
            let j = expectProblem(r, 500, kind: "archive-failed")
            #expect(j["detail"]?.string?.contains("libzip could not build the archive") == true, "\(format): \(r.text)")
        }
        #expect(try export("css").status == 200)
        server.terminate()
    }

    /// Compiles `source` into a shared library to preload (the C compiler of the toolchain or
    /// the system: clang or cc). No compiler is a failure, not a skip.
    static func failingLibrary(_ name: String, source: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("preload-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let c = dir.appendingPathComponent("fail.c"), so = dir.appendingPathComponent("libfail\(name).so")
        try Data(source.utf8).write(to: c)
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init) + ["/usr/bin"]
        let compiler = ["cc", "clang", "gcc"].lazy.flatMap { tool in path.map { "\($0)/\(tool)" } }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        let cc = try #require(compiler, "no C compiler (cc, clang or gcc) to build the preloaded failing \(name) library")
        let built = try runTool(cc, ["-shared", "-fPIC", "-o", so.path, c.path, "-ldl"])
        try #require(built.status == 0, "\(cc) failed: \(built.output)")
        return so
    }
}
