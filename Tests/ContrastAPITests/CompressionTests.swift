import ContrastAPI
import Foundation
import HTTPServer
import TestSupport
import Testing

/// gzip content coding of large responses, checked with the system's gzip as the decoder.
struct CompressionTests {
    func gunzip(_ data: [UInt8]) throws -> [UInt8] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-dc"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        input.fileHandleForWriting.write(Data(data))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return Array(out)
    }

    @Test func largeMatrixIsGzippedWhenAccepted() throws {
        let live = try LiveServer()
        let colors = (0..<40).map { String(format: "\"#%06x\"", ($0 * 2_654_435_761) & 0xffffff) }.joined(separator: ",")
        let body = #"{"colors": [\#(colors)]}"#
        let plain = try live.request("POST", "/v1/contrast/matrix", body: body)
        let gz = try live.request("POST", "/v1/contrast/matrix", body: body,
                                  headers: ["Content-Type": "application/json", "Accept-Encoding": "br;q=1, gzip;q=0.8"])
        #expect(plain.headers["content-encoding"] == nil)
        #expect(plain.headers["vary"]?.contains("Accept-Encoding") == true)   // it has a gzip variant
        #expect(gz.headers["content-encoding"] == "gzip")
        #expect(gz.headers["vary"]?.contains("Accept-Encoding") == true)
        #expect(gz.body.count * 5 < plain.body.count, "\(gz.body.count) vs \(plain.body.count)")
        #expect(try gunzip(gz.body) == plain.body)
    }

    @Test func smallOrRefusedStaysIdentity() throws {
        let live = try LiveServer()
        let small = try live.request("GET", "/healthz", headers: ["Accept-Encoding": "gzip"])
        #expect(small.headers["content-encoding"] == nil)
        #expect(small.headers["vary"] == nil)   // below 1 KiB there is no gzip variant to tell apart
        let request = HTTPRequest(method: "GET", path: "/", headers: ["accept-encoding": "gzip;q=0"])
        #expect(!Compression.acceptsGzip(request))
        #expect(Compression.acceptsGzip(HTTPRequest(method: "GET", path: "/", headers: ["accept-encoding": "deflate, GZIP"])))
        // A named coding outranks `*` (RFC 9110 §12.5.3), in either order.
        for (value, accepted) in [("*, gzip;q=0", false), ("gzip;q=0, *", false), ("*", true), ("*;q=0", false),
                                  ("*;q=0, gzip", true), ("identity", false), ("x-gzip;q=0.5", true),
                                  // A preferred identity wins; invalid weights refuse (hostile test, stop 14).
                                  ("gzip;q=0.5, identity;q=1", false), ("identity;q=0.5, gzip", true), ("gzip;q=0.5, *", false),
                                  ("gzip, *", true), ("gzip;q=0.001", true), ("gzip;q=1.000", true), ("gzip;q=0.0001", false),
                                  ("gzip;q=abc", false), ("gzip;q=1.5", false), ("gzip;q=\"0\"", false), ("gzip;q=", false),
                                  ("gzip;q=0.5, deflate", true)] {
            #expect(Compression.acceptsGzip(HTTPRequest(method: "GET", path: "/", headers: ["accept-encoding": value])) == accepted, "\(value)")
        }
        let big = HTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: [UInt8](repeating: 7, count: 5000))
        #expect(Compression.apply(to: big, for: HTTPRequest(method: "GET", path: "/", headers: ["accept-encoding": "gzip"])).body == big.body)
    }

    /// Text-like media types are compressed, others are not (the check compares bytes).
    @Test func compressibleMediaTypes() {
        let gzipRequest = HTTPRequest(method: "GET", path: "/", headers: ["accept-encoding": "gzip"])
        let body = [UInt8](repeating: 0x61, count: 5000)
        let cases: [(String, Bool)] = [
            ("application/json", true), ("application/problem+json", true), ("image/svg+xml", true),
            ("text/csv; charset=utf-8", true), ("Text/HTML", true), ("application/xml", true),
            ("text/javascript", true), ("application/javascript", true), ("application/zip", false),
            ("image/png", false), ("application/octet-stream", false), ("jso", false), ("", false),
        ]
        for (type, compressible) in cases {
            let response = HTTPResponse(status: 200, headers: [("Content-Type", type)], body: body)
            let applied = Compression.apply(to: response, for: gzipRequest)
            #expect((applied.header("content-encoding") == "gzip") == compressible, "\(type)")
        }
    }
}
