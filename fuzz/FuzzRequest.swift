// libFuzzer target: request JSON decoding — `JSONParser.parse` and the endpoints' `Fields`
// validation — through `ContrastService.handle`, exactly as the server calls it, without sockets.
// Linked by fuzz/build against the package's modules built with coverage instrumentation.
//
// The first input byte picks an endpoint (POST routes taking JSON), the rest is the body.
// Properties checked for every input (a failure traps, which libFuzzer reports as a crash):
// - no answer is a 5xx and nothing traps;
// - every answer body is valid JSON, and every 4xx is an RFC 9457 problem (type, title, status);
// - JSON that parses serializes to text that parses back to the same value (round trip).

import ContrastAPI
import HTTPServer
import JSONValue

let fuzzRoutes = [
    "/v1/contrast", "/v1/convert", "/v1/difference", "/v1/audit", "/v1/table-stripes",
    "/v1/contrast/matrix", "/v1/simulate",
]

let fuzzService: ContrastService = {
    var configuration = ServiceConfiguration()
    configuration.maxPaletteSize = 32   // keeps each run fast; limits are exercised all the same
    return ContrastService(configuration: configuration)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let route = fuzzRoutes[Int(data[0]) % fuzzRoutes.count]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))

    if let value = try? JSONParser.parse(body) {
        let text = value.serialized()
        guard let again = try? JSONParser.parse(text) else {
            preconditionFailure("serialized JSON does not parse: \(String(decoding: text, as: UTF8.self))")
        }
        precondition(again == value, "JSON round trip changed the value")
    }

    let request = HTTPRequest(method: "POST", path: route, headers: ["Content-Type": "application/json"], body: body)
    let response = fuzzService.handle(request)
    precondition(response.status < 500, "\(route) answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
    if response.header("Content-Type")?.contains("json") == true {
        guard let json = try? JSONParser.parse(response.body) else {
            preconditionFailure("\(route) answered invalid JSON: \(String(decoding: response.body, as: UTF8.self))")
        }
        if response.status >= 400 {
            guard case .object(let problem) = json, problem["type"] != nil, problem["title"] != nil,
                  problem["status"] == .number(Double(response.status)) else {
                preconditionFailure("\(route) \(response.status) is not a problem: \(String(decoding: response.body, as: UTF8.self))")
            }
        }
    }
    return 0
}
