import ContrastAPI
import Foundation
import HTTPServer
import JSONValue
import TestSupport
import Testing

// In-process helpers of the API tests. The raw client, the fixture loader and the servers on
// port 0 are in the TestSupport target.

extension Reply {
    init(_ r: HTTPResponse) {
        var h: [String: String] = [:]
        for (k, v) in r.headers { h[k.lowercased()] = v }
        self.init(status: r.status, headers: h, body: r.body)
    }
}

/// The service answered in-process, without sockets.
func call(_ method: String, _ target: String, body: String? = nil, contentType: String? = "application/json",
          configuration: ServiceConfiguration = testConfiguration()) -> Reply {
    let service = ContrastService(configuration: configuration)
    var path = target, query: [(name: String, value: String?)] = []
    if let q = target.firstIndex(of: "?") {
        path = String(target[..<q])
        for part in target[target.index(after: q)...].split(separator: "&") {
            let kv = part.split(separator: "=", maxSplits: 1)
            let name = String(kv[0]).removingPercentEncoding ?? String(kv[0])
            let value = kv.count > 1 ? (String(kv[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(kv[1])) : nil
            query.append((name, value))
        }
    }
    var headers: [String: String] = [:]
    if body != nil, let contentType { headers["content-type"] = contentType }
    let request = HTTPRequest(method: method, path: path, query: query, headers: headers, body: Array((body ?? "").utf8))
    return Reply(service.handle(request))
}

/// Percent-encodes a query value.
func q(_ s: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s
}

/// Checks a reply is an RFC 9457 problem with the given status, and returns its JSON.
@discardableResult
func expectProblem(_ r: Reply, _ status: Int, pointer: String? = nil, parameter: String? = nil,
                   sourceLocation: SourceLocation = #_sourceLocation) -> JSON {
    #expect(r.status == status, "status \(r.status): \(r.text)", sourceLocation: sourceLocation)
    #expect(r.headers["content-type"] == "application/problem+json", sourceLocation: sourceLocation)
    let j = r.json
    #expect(j["status"] == .number(Double(status)), sourceLocation: sourceLocation)
    for key in ["type", "title", "detail"] {
        if case .string(let s)? = j[key] { #expect(!s.isEmpty, sourceLocation: sourceLocation) } else {
            Issue.record("problem lacks \(key): \(r.text)", sourceLocation: sourceLocation)
        }
    }
    if let pointer { #expect(j["pointer"] == .string(pointer), "\(r.text)", sourceLocation: sourceLocation) }
    if let parameter { #expect(j["parameter"] == .string(parameter), "\(r.text)", sourceLocation: sourceLocation) }
    return j
}

/// Checks a reply is the problem `/problems/<kind>` with the given status.
@discardableResult
func expectProblem(_ r: Reply, _ status: Int, kind: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSON {
    let j = expectProblem(r, status, sourceLocation: sourceLocation)
    #expect(j["type"] == .string("/problems/\(kind)"), "\(r.text)", sourceLocation: sourceLocation)
    return j
}
