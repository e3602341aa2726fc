@testable import ContrastAPI
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
    /// (a container that copied only the binary): it exits 2 at start, naming the bundle and
    /// what would fail. It had started and served /healthz 200 with 500 on every Apple route and
    /// /openapi.json, so such an image rolled out as ready (an ops pass).
    @Test func missingResourceBundleStopsTheServerAtStart() throws {
        let built = try #require(ServerProcess.binary, "contrast-server is not built next to the tests")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nobundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let alone = dir.appendingPathComponent("contrast-server")
        try FileManager.default.copyItem(at: built, to: alone)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("ContrastService_ContrastAPI.resources").path))
        let server = try ServerProcess(executable: alone, environment: ["CONTRAST_PUBLIC_DIRECTORY": repositoryRoot.appendingPathComponent("Public").path],
                                       directory: dir)
        let log = server.finalLog()
        #expect(server.terminationStatus == 2, "\(log)")
        #expect(log.contains("resource bundle ContrastService_ContrastAPI.resources not found beside the executable")
                && log.contains("the Apple reference data cannot be loaded") && log.contains("/openapi.json would answer 500")
                && !log.contains("listening on"), "\(log)")
        // An empty bundle folder (or one lacking a file) stops it too, naming the file (a hostile
        // pass: an empty folder had started and answered 500).
        let bundle = dir.appendingPathComponent("ContrastService_ContrastAPI.resources")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let empty = try ServerProcess(executable: alone, directory: dir)
        let emptyLog = empty.finalLog()
        #expect(empty.terminationStatus == 2 && emptyLog.contains("lacks apple_system_colors.json or it is empty"), "\(emptyLog)")
        try FileManager.default.removeItem(at: bundle)
        // The files checked are the ones Package.swift bundles.
        let package = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let copied = package.components(separatedBy: ".copy(\"Resources/").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        #expect(Set(copied) == Set(AppleData.bundleFiles), "\(copied)")
        // With the bundle beside it, the same copy starts.
        try FileManager.default.copyItem(at: built.deletingLastPathComponent().appendingPathComponent("ContrastService_ContrastAPI.resources"),
                                         to: dir.appendingPathComponent("ContrastService_ContrastAPI.resources"))
        // Unless a file of it is cut short (an operator's pass: a problem_types.json holding `{`
        // started, and /problems/ answered 404).
        let types = bundle.appendingPathComponent("problem_types.json")
        let whole0 = try Data(contentsOf: types)
        try Data(whole0.prefix(whole0.count / 2)).write(to: types)
        let cut = try ServerProcess(executable: alone, directory: dir)
        let cutLog = cut.finalLog()
        #expect(cut.terminationStatus == 2 && cutLog.contains("holds a damaged problem_types.json") && !cutLog.contains("listening on")
                && !cutLog.contains("the Apple reference data"), "\(cutLog)")
        try whole0.write(to: types)
        // Cut at a line that ends in `}` (how a file is most often cut: a hostile pass found the
        // first check, of the last character only, passing it), the server stops too; a whole
        // file with a long whitespace tail starts.
        let openapi = bundle.appendingPathComponent("openapi.json")
        let document = try Data(contentsOf: openapi)
        let lines = String(decoding: document, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let cutAt = try #require(lines.indices.first { $0 > 100 && lines[$0].trimmingCharacters(in: .whitespaces) == "}" })
        try Data(lines[...cutAt].joined(separator: "\n").utf8).write(to: openapi)
        let braced = try ServerProcess(executable: alone, directory: dir)
        let bracedLog = braced.finalLog()
        #expect(braced.terminationStatus == 2 && bracedLog.contains("holds a damaged openapi.json"), "\(bracedLog)")
        try (document + Data(String(repeating: " ", count: 100).utf8 + [0x0A])).write(to: openapi)
        // Whole JSON with the wrong content stops it too, naming the file (an operator's pass:
        // `{}` as apple_system_colors.json started, passed /healthz and answered 500).
        for (name, says) in [("apple_system_colors.json", "the Apple reference data (apple_system_colors.json, apple_hig_supplement.json) cannot be used"),
                             ("openapi.json", "openapi.json cannot be used"), ("problem_types.json", "problem_types.json holds no problem types")] {
            let file = bundle.appendingPathComponent(name)
            let kept = try Data(contentsOf: file)
            try Data((name == "problem_types.json" ? "[]" : "{}").utf8).write(to: file)
            let wrong = try ServerProcess(executable: alone, directory: dir)
            let wrongLog = wrong.finalLog()
            #expect(wrong.terminationStatus == 2 && wrongLog.contains(says) && !wrongLog.contains("listening on"), "\(name): \(wrongLog)")
            try kept.write(to: file)
        }
        for (bytes, whole) in [("{\"a\": [1, {\"b\": \"}\"}]}", true), ("{\"a\": [1, {\"b\": \"}\"}]", false), ("{\"a\": \"\\\"}\"}", true),
                               ("[1, 2]  \n", true), ("{} {}", false), ("{]", false), ("\"x\"", false), ("", false)] {
            #expect(AppleData.isWholeJSONStructure(Array(bytes.utf8)) == whole, "\(bytes)")
        }
        let whole = try ServerProcess(executable: alone, directory: dir)
        _ = try whole.waitForPort()
        whole.terminate()
        #expect(whole.terminationStatus == 0, "\(whole.log)")
    }

    /// Without /proc (a mount namespace that hides it) Swift reads no arguments and finds no
    /// resource bundle: the server had run on ./config.json whatever flags it was given, skipped
    /// its resource check and trapped at the first request needing the bundle (a hostile pass).
    /// It now stops at once, saying why. Needs root for `unshare -m` (CI runs as root).
    @Test(.enabled(if: getuid() == 0, "unshare -m needs root"))
    func withoutProcTheServerDoesNotStart() throws {
        let built = try #require(ServerProcess.binary, "contrast-server is not built next to the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "sh", "-c", "mount -t tmpfs none /proc && exec \"$0\" --port 0", built.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 2 && text.contains("/proc is not mounted"), "\(process.terminationStatus): \(text)")
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
