@testable import ContrastAPI
import Foundation
import HTTPServer
import JSONValue
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Fuzz regressions: the request fuzzer's corpus replayed through the service. Over the real server on port 0
/// (`ProductionServer`) unless it is a pure function.
@Suite(.serialized) struct FuzzCorpusTests {
    /// Replays the request fuzzer's seed corpus (fuzz/corpus/request: first byte picks the
    /// route as in fuzz/FuzzRequest.swift, the rest is the body) through the service: never a
    /// 5xx, every 4xx a problem. Inputs that crashed the fuzzer are added to the corpus and so
    /// become regression cases here (none so far).
    @Test func fuzzCorpusReplaysWithoutServerErrors() throws {
        let routes = ["/v1/contrast", "/v1/convert", "/v1/difference", "/v1/audit", "/v1/table-stripes",
                      "/v1/contrast/matrix", "/v1/simulate"]
        let folder = repositoryRoot.appendingPathComponent("fuzz/corpus/request")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files.count >= 10)
        var configuration = testConfiguration()
        configuration.maxPaletteSize = 32
        let service = ContrastService(configuration: configuration)
        for file in files {
            let data = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
            guard let first = data.first else { continue }
            let route = routes[Int(first) % routes.count]
            let response = service.handle(HTTPRequest(method: "POST", path: route, headers: ["Content-Type": "application/json"],
                                                      body: Array(data.dropFirst())))
            #expect(response.status < 500, "\(file) on \(route): \(response.status)")
            if response.status >= 400 { expectProblem(Reply(response), response.status) }
        }
    }

    /// Replays the image fuzzer's corpus (fuzz/corpus/image: the body is the image, as in
    /// fuzz/FuzzImage.swift) through the image routes (text-contrast with a region, and its heat
    /// map and preview): never a 5xx, every 4xx a problem.
    /// Inputs that crashed or hung the fuzzer are added there.
    @Test func imageFuzzCorpusReplaysWithoutServerErrors() throws {
        let folder = repositoryRoot.appendingPathComponent("fuzz/corpus/image")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files.count >= 15)
        let service = ContrastService(configuration: testConfiguration())
        for file in files {
            let body = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
            let text = "/v1/image/text-contrast"
            let routes: [(String, [(name: String, value: String?)])] = [
                ("/v1/image/analyze", []), ("/v1/image/dim", []),
                (text, [("textColor", "#777"), ("region", "0,0,2,2"), ("target", "60")]),
                (text, [("textColor", "black"), ("heatmap", "true")]),
                (text, [("textColor", "white"), ("preview", "true"), ("scrim", "gradient")]),
            ]
            for (path, query) in routes {
                let response = service.handle(HTTPRequest(method: "POST", path: path, query: query, body: body))
                #expect(response.status < 500, "\(file) on \(path) \(query): \(response.status)")
                if response.status >= 400 { expectProblem(Reply(response), response.status) }
            }
        }
    }
}
