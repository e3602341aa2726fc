import HTTPServer
import JSONValue

/// `POST /v1/contrast/batch`: many `/v1/contrast` questions in one request, for a design tool
/// checking the pairs of a page or frame (a plugin author's pass: only one request per pair, or a
/// whole N × N matrix of 7 MB for 200 colors).
///
/// Request: `{"pairs": [pair, …], "variables"?}`: each pair is a `/v1/contrast` body
/// (`foreground`, `background`, `backdrop`, `layers`, `fontSize`/`fontSizeUnit`/`fontWeight`,
/// `algorithm`, `hexOrder`, `textShadow`, `gamutMethod`, the Apple options), validated as that
/// route validates it, a problem naming the pair's member (`/pairs/3/foreground`); `variables`
/// (CSS custom properties) serve every pair. 1 to `maxPairs` pairs. A gradient background is
/// measured one per request at `/v1/contrast` (or many in `/v1/contrast/matrix`), where its cost
/// is bounded: here it is a 400 naming the pair.
///
/// A pair may carry `id`, the client's own key for it (a string of at most 256 characters,
/// Unicode scalars as JSON Schema's `maxLength` counts them: a layer
/// or node id), echoed as the first member of its answer (a plugin author's pass: results could
/// be matched to layers only by their order).
///
/// Response: `{"count", "results": [answer, …]}`, each answer exactly `/v1/contrast`'s for that
/// pair (with `id` first when given), in request order.
///
/// Cost: every pair's members are checked before any color is read, so a bad last pair costs
/// nothing (a gradient, which `var()` can hide, is found as its pair is measured); the pairs are
/// then measured within `maxNanoseconds` of work (a 422 `limit-exceeded` naming the pair reached),
/// and not at all once the server has answered the request itself (its deadline). A hostile pass sent 1,000 pairs of 32 layers of a 5-step
/// `var()` chain of `color-mix()` (443 KB): 67 s of CPU, going on after the 503 at 30 s.
struct ContrastBatchEndpoint {
    static let path = "/v1/contrast/batch"
    /// Most pairs in one batch (about 1 KB of answer each; a batch of plain pairs is measured
    /// in a few milliseconds).
    static let maxPairs = 1_000
    /// Most work one batch may take, in nanoseconds: 2 s (1,000 plain pairs take about 0.02 s).
    static let maxNanoseconds: UInt64 = 2_000_000_000
    /// Where a gradient is measured instead, for the problems naming one.
    static let gradientsElsewhere = "gradients are measured one per request at POST /v1/contrast (or many at once in /v1/contrast/matrix), where their cost is bounded"

    /// Longest `id` of a pair, in Unicode scalars (JSON Schema's `maxLength`).
    static let maxIDLength = 256

    static func handle(_ request: HTTPRequest) throws(Problem) -> [UInt8] {
        let f = try Fields.body(request)
        try f.rejectUnknown(["pairs"], listing: ["pairs", "variables"])
        let list = f.field("pairs")
        let items = try f.array("pairs", required: true, maxCount: maxPairs)!
        if items.isEmpty {
            throw Problem.invalidField(list, "\(list.display) is an empty list; give at least one pair such as {\"foreground\": \"#000\", \"background\": \"#fff\"}")
        }
        // The members of every pair first (no color read yet: a gradient behind var() is one,
        // so gradients are looked for as each pair is measured).
        var pairs: [(fields: Fields, object: JSONObject, id: String?)] = []
        pairs.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let path = list.appending(index: i)
            guard case .object(let o) = item else {
                throw Problem.invalidField(path, "\(path.display) must be an object such as a /v1/contrast body ({\"foreground\": \"#000\", \"background\": \"#fff\"}), not \(item.typeName)")
            }
            let pair = Fields(object: o, path: path, fromQuery: false)
            try pair.rejectUnknown(ContrastEndpoint.fieldsWithGamutMethod.union(ContrastEndpoint.gradientFields).union(["id"]),
                                   listing: ContrastEndpoint.fieldsWithGamutMethod.union(["id"]))
            var id: String? = nil
            if let v = o["id"] {
                guard case .string(let s) = v, s.unicodeScalars.count <= maxIDLength else {
                    throw Problem.invalidField(pair.field("id"), "\(pair.field("id").display) must be a string of at most \(maxIDLength) characters (your own key for the pair, echoed in its result), not \(v.typeName == "string" ? "a longer one" : v.typeName)")
                }
                id = s
            }
            if let key = ["box", "region", "target"].first(where: { pair.has($0) }) {
                throw Problem.invalidField(pair.field(key), "\(pair.field(key).display) belongs to a gradient background, and \(gradientsElsewhere)")
            }
            pairs.append((pair, o, id))
        }
        let started = MonotonicClock.nanoseconds()
        var out = JSONByteWriter()
        out.beginObject()
        out.member("count", items.count)
        out.key("results")
        out.beginArray()
        for (i, (pair, o, id)) in pairs.enumerated() {
            // Nothing more once the server has answered (503 at its deadline, or shutting down).
            if request.workTicket?.isAbandoned == true { throw Problem.limitExceeded("the batch was answered by the server before it was measured", limit: maxPairs, []) }
            if i > 0, MonotonicClock.nanoseconds() &- started > maxNanoseconds {
                throw Problem.tooLarge(list.appending(index: i), "\(list.display) took more than \(maxNanoseconds / 1_000_000_000) s of work before pair \(i) of \(pairs.count); send fewer pairs per request, or simpler colors (each color's var() chain is read again for every color that uses it)", limit: Int(maxNanoseconds / 1_000_000_000), status: 422)
            }
            if let at = ContrastEndpoint.gradientMember(pair) {
                throw Problem.invalidField(at, "\(at.display) is a CSS gradient: \(gradientsElsewhere)")
            }
            try CSSRequestScope.checkInlineTime()
            let apple = try AppleContrastOptions(pair)
            let answer = try apple.run { () throws(Problem) -> [UInt8] in
                var w = JSONByteWriter()
                try ContrastEndpoint.answer(pair, apple, readsGamutMethod: o["gamutMethod"] != nil, into: &w)
                return w.bytes
            }
            if i > 0 { out.raw(UInt8(ascii: ",")) }
            if let id, answer.count > 2, answer.first == UInt8(ascii: "{") {
                // The answer is an object with members: `id` goes first in it.
                var key = JSONByteWriter()
                key.string(id)
                out.raw(Array("{\"id\":".utf8))
                out.raw(key.bytes)
                out.raw(UInt8(ascii: ","))
                out.raw(Array(answer.dropFirst()))
            } else {
                out.raw(answer)
            }
        }
        out.endArray()
        out.endObject()
        return out.bytes
    }
}
