import Foundation
import HTTPServer
import JSONValue

/// `GET /openapi.json`: the OpenAPI 3.1 description of every endpoint (parameters, bodies,
/// responses, problem details), issue 8's machine-readable contract.
///
/// The document is the package resource `Resources/openapi.json`, edited by hand next to the
/// endpoints it describes; `OpenAPITests` checks that it lists exactly the router's routes and that
/// sample answers of every endpoint match it, and `.ci/schemathesis` fuzzes the live server
/// against it. It is read and validated once (strict JSON), then served compact. The route is
/// open (no bearer token) and, like every successful GET, gets `ETag` and `Cache-Control` from
/// the middleware (`Caching`), so clients revalidate with `If-None-Match`.
///
/// A missing or broken resource is a packaging defect: the route then answers 500
/// `openapi-unavailable` and the rest of the service keeps working.
enum OpenAPI {
    /// The resource's name in the `ContrastService_ContrastAPI.resources` bundle.
    static let resourceName = "openapi"

    /// The compact document, or the problem to answer with; loaded on first use.
    static let document: Result<[UInt8], Problem> = load()

    /// The `/openapi.json` answer.
    static func response() -> HTTPResponse {
        switch document {
        case .success(let body):
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: body)
        case .failure(let problem):
            return problem.response
        }
    }

    /// Reads the resource as `AppleData` reads its own (checking for the bundle first, since
    /// SwiftPM's `Bundle.module` stops the process when the bundle is missing), parses it
    /// strictly and re-serializes it without whitespace.
    static func load() -> Result<[UInt8], Problem> {
        func unavailable(_ reason: String) -> Result<[UInt8], Problem> {
            .failure(Problem(status: 500, kind: "openapi-unavailable", title: "OpenAPI document unavailable",
                             detail: "the bundled OpenAPI document could not be loaded: \(reason)"))
        }
        if let reason = AppleData.bundleProblem() { return unavailable(reason) }
        let url = Bundle.module.url(forResource: resourceName, withExtension: "json")
            ?? Bundle.module.url(forResource: resourceName, withExtension: "json", subdirectory: "Resources")
        guard let url, let data = try? Data(contentsOf: url) else {
            return unavailable("resource \(resourceName).json not found in the bundle")
        }
        do {
            let json = try JSONParser.parse(Array(data), maxDepth: 64)
            guard case .object(let o) = json, case .string(let version)? = o["openapi"], version.hasPrefix("3.1.") else {
                return unavailable("\(resourceName).json is not an OpenAPI 3.1 document")
            }
            return .success(json.serialized())
        } catch {
            return unavailable("\(resourceName).json: \(error.description)")
        }
    }
}
