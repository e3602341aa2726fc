import ColorScience
@testable import ContrastAPI
import Foundation
import HTTPServer
import JSONValue
import TestSupport
import Testing

/// Clients that try to make the service read, hold or wait for more than it should (issue #17,
/// from a hostile run; bench/hostile replays them against the release build).
@Suite struct HostileClientTests {
    /// With tokens on, an upload without a token was read in full before its 401: eight clients
    /// each sending 19 of a declared 20 MiB and stalling took RSS from 68 to 220 MB. The 401 now
    /// comes from the headers: it arrives while the client has sent almost nothing.
    @Test func aLargeUploadWithoutATokenIsRefusedBeforeItsBody() throws {
        let live = try ProductionServer { $0.authTokens = [token] }
        for (path, type) in [("/v1/image/analyze", "image/png"), ("/v1/contrast", "application/json"), ("/v1/nowhere", "application/json")] {
            let connection = try RawHTTPConnection(port: live.port, timeoutSeconds: 10)
            #expect(connection.send("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: \(type)\r\nContent-Length: 19922944\r\n\r\n"))
            #expect(connection.send([UInt8](repeating: 0x41, count: 1000)))
            let answer = try connection.readResponse()
            #expect(answer.status == 401, "\(path): \(answer.statusLine)")
            #expect(answer.jsonObject?["type"] as? String == "/problems/unauthorized")
            #expect(answer.header("Connection") == "close" && answer.header("WWW-Authenticate") != nil)
        }
        // Logged once each, as 401s.
        let marker = "\"status\":401"
        let logged = live.log.lines.withLock { $0 }.filter { $0.contains(marker) }
        #expect(logged.count == 3, "\(logged)")
        // With a token the body is read as usual.
        let ok = try live.request("POST", "/v1/contrast", headers: ["Authorization": "Bearer \(token)"],
                                  body: ##"{"foreground": "#000", "background": "#fff"}"##)
        #expect(ok.status == 200)
    }

    /// A large body for a route that does not take the method is refused from the headers too.
    @Test func aLargeUploadToAWrongMethodOrPathIsRefusedBeforeItsBody() throws {
        let live = try ProductionServer()
        for (path, status) in [("/v1/suggestions", 404), ("/healthz", 405)] {
            let connection = try RawHTTPConnection(port: live.port, timeoutSeconds: 10)
            #expect(connection.send("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n\r\n{"))
            let answer = try connection.readResponse()
            #expect(answer.status == status, "\(path): \(answer.statusLine)")
            #expect(answer.header("Connection") == "close")
        }
    }

    /// Only ASCII whitespace is trimmed around names: `?name=%E2%80%8Blabel` (a zero-width space)
    /// and `%C2%A0label` (a no-break space) found `label` (outside test), while the docs say such
    /// characters make a system color name invalid.
    @Test func invisibleCharactersAroundANameAreNotTrimmed() throws {
        let live = try ProductionServer()
        for bad in ["%E2%80%8Blabel", "%C2%A0label", "label%E2%80%8B"] {
            let answer = try live.request("GET", "/v1/system-colors?name=\(bad)")
            #expect(answer.status == 400, "\(bad): \(answer.statusLine)")
            #expect(answer.jsonObject?["parameter"] as? String == "name")
        }
        #expect(try live.request("GET", "/v1/system-colors?name=label%20").status == 200)
        #expect(try live.request("GET", "/v1/system-colors?name=%09label").status == 200)
    }

    /// A 41 KB request of 256 colors with 128-byte names of `&` had built a 101 MB SVG (and a
    /// client that never read it held the memory budget for 30 s): CSV and SVG repeat both names
    /// in every cell. The answer's size is bounded from the names before anything is built.
    /// A large matrix answer reserves its size in the memory budget before it is built, as an
    /// image answer does (a hostile pass: nine 24 MB SVG matrices for clients reading slowly were
    /// built at once under a 16 MiB budget, peak RSS 280 MB; after: one built, the rest 503).
    @Test func aLargeMatrixAnswerReservesTheMemoryBudget() throws {
        let live = try ProductionServer { $0.memoryBudgetMiB = 4 }
        let ordinary = (0..<128).map { i in ##"{"name": "color.background.neutral.subtle.\##(String(format: "%07d", i))", "color": "#\##(String(format: "%06x", i * 65_000))"}"## }
        let body = #"{"colors": [\#(ordinary.joined(separator: ","))], "format": "svg"}"#
        let request = Array("POST /v1/contrast/matrix HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8)
        // Two addresses ask at once, before either answer exists (both admitted): one answer
        // is built, the other refused before it is built, since the two would pass the budget.
        let a = try RawHTTPConnection(port: live.port, source: "127.0.0.2")
        let b = try RawHTTPConnection(port: live.port, source: "127.0.0.3")
        #expect(a.send(request) && b.send(request))
        Thread.sleep(forTimeInterval: 1.5)
        let answers = [try a.readResponse(), try b.readResponse()]
        #expect(answers.map(\.status).sorted() == [200, 503], "\(answers.map(\.status))")
        // Refused by its reservation, or (when the first was already built and queued) on arrival.
        if let refused = answers.first(where: { $0.status == 503 }) {
            let detail = String(decoding: refused.body, as: UTF8.self)
            #expect(detail.contains("SVG matrix answer may take up to") || detail.contains("hold more than the server's memory budget"), "\(detail.prefix(300))")
        }
        #expect(answers.contains { $0.status == 200 && $0.body.count > 4 << 20 })
        // Once it is read, the next is served.
        let again = try RawHTTPConnection(port: live.port, source: "127.0.0.3")
        #expect(again.send(request))
        #expect(try again.readResponse().status == 200)
    }

    /// A token audit's report reserves its estimated size too (a hostile pass: a 14.5 KB
    /// stylesheet of 300 pairs through a 60-step alias chain in 65 modes makes a 21 MB JSON
    /// report; sixteen slow readers had nine held at once, peak RSS 469 MB, budget 64 MiB).
    @Test func aLargeTokenAuditReportReservesTheMemoryBudget() throws {
        let live = try ProductionServer { $0.memoryBudgetMiB = 4 }
        var css = ":root{--a0:#777;" + (1..<20).map { "--a\($0):var(--a\($0 - 1));" }.joined()
        css += (0..<300).map { "--p\($0)-foreground:var(--a19);--p\($0):#fff;" }.joined() + "}\n"
        css += (0..<40).map { ".t\($0)-theme{--a0:#\($0 % 10)\($0 % 10)\($0 % 10);}\n" }.joined()
        let request = Array("POST /v1/tokens/audit?preset=shadcn HTTP/1.1\r\nHost: x\r\nContent-Type: text/css\r\nContent-Length: \(css.utf8.count)\r\nConnection: close\r\n\r\n\(css)".utf8)
        // Two addresses at once, both admitted (nothing is held yet): the one audited first is
        // built and left unread; the other is then refused by its reservation before it is built.
        // Neither is read until one of the two is answered in full (the 503) or both are built.
        let a = try RawHTTPConnection(port: live.port, source: "127.0.0.2")
        let b = try RawHTTPConnection(port: live.port, source: "127.0.0.3")
        #expect(a.send(request) && b.send(request))
        #expect(waitUntil(limit: 10) { live.server.statistics.requestsInProgress == 2 }, "\(live.server.statistics)")
        _ = waitUntil(limit: 60) { live.server.statistics.requestsInProgress < 2 }
        let answers = [try a.readResponse(), try b.readResponse()]
        #expect(answers.map(\.status).sorted() == [200, 503], "\(answers.map(\.status))")
        if let refused = answers.first(where: { $0.status == 503 }) {
            let detail = String(decoding: refused.body, as: UTF8.self)
            #expect(detail.contains("json token audit report may take up to") || detail.contains("hold more than the server's memory budget"), "\(detail.prefix(300))")
        }
        #expect(answers.contains { $0.status == 200 && $0.body.count > 4 << 20 }, "\(answers.map(\.body.count))")
        // Once it is read, the next is served.
        let again = try RawHTTPConnection(port: live.port, source: "127.0.0.3")
        #expect(again.send(request))
        #expect(try again.readResponse().status == 200)
    }

    /// A matrix's answer estimate weighs each name as the format writes it, hidden characters
    /// as `\u202E` (a hostile pass: 256 names of 125 U+0007 made a 104 MB CSV, 244 names of
    /// U+200B a 56.6 MB SVG, past the 32 MiB cap). Refused when past it; otherwise the answer
    /// is within the estimate.
    @Test func aMatrixEstimateWeighsHiddenCharactersAsWritten() throws {
        let hidden: [Unicode.Scalar] = ["\u{7}", "\u{85}", "\u{200B}", "\u{202E}", "\u{E0041}", "\u{3164}", "\"", "&", "<"]
        for format in ["csv", "svg"] {
            let big = (0..<256).map { i in ##"{"name": "\##(String(repeating: "\\u0007", count: 125))\##(String(format: "%03d", i))", "color": "#\##(String(format: "%06x", i * 65_000))"}"## }
            let refused = call("POST", "/v1/contrast/matrix?format=\(format)", body: #"{"colors": [\#(big.joined(separator: ","))]}"#)
            #expect(refused.status == 422, "\(format): \(refused.status)")
            for scalar in hidden {
                var name = ""
                for _ in 0..<20 { name.unicodeScalars.append(scalar) }
                let palette = (0..<24).map { i in
                    let c = Color.srgb(Double(i) / 23, 0.3, 0.6)
                    return PaletteColor(name: name + String(i), color: ResolvedColor(input: "x", color: c, display: DisplayColor(c).quantized))
                }
                let body = JSON.object(JSONObject([("colors", .array(palette.map { .object(JSONObject([("name", .string($0.name)), ("color", .string(ColorJSON.hex($0.color.display.srgb)))])) }))])).serializedString
                let reply = call("POST", "/v1/contrast/matrix?format=\(format)", body: body)
                let estimate = MatrixEndpoint.answerBytes(palette, format: format == "csv" ? .csv : .svg)
                #expect(reply.status == 200 && reply.body.count <= estimate, "\(format) U+\(String(scalar.value, radix: 16)): \(reply.body.count) > \(estimate)")
                #expect(!reply.text.unicodeScalars.contains { $0.value >= 0x7F && JSON.isHidden($0) } && !reply.text.contains("&#x"), "\(format)")
            }
        }
    }

    @Test func aMatrixWhoseAnswerWouldBeHugeIsRefusedBeforeItIsBuilt() throws {
        let live = try ProductionServer()
        let names = (0..<256).map { i in String(format: "%03d", i) + String(repeating: #"\""#, count: 125) }   // `"`: 6 bytes in SVG, 2 in CSV
        let colors = names.enumerated().map { i, name in ##"{"name": "\##(name)", "color": "#\##(String(format: "%06x", i * 65_000))"}"## }
        let body = #"{"colors": [\#(colors.joined(separator: ","))]}"#
        #expect(body.utf8.count < 80_000)
        for format in ["svg", "csv"] {
            let answer = try live.request("POST", "/v1/contrast/matrix?format=\(format)", body: body)
            #expect(answer.status == 422, "\(format): \(answer.statusLine)")
            #expect(answer.jsonObject?["pointer"] as? String == "/colors")
            #expect(answer.jsonObject?["limit"] as? Double == Double(32 << 20))
            #expect((answer.jsonObject?["detail"] as? String)?.contains("256 × 256 cells") == true)
            #expect(answer.body.count < 2_000)
        }
        // JSON names each color once: the same palette is answered.
        #expect(try live.request("POST", "/v1/contrast/matrix", body: body).status == 200)
        // The largest ordinary palette still draws: 256 colors with 40-character names.
        let ordinary = (0..<256).map { i in ##"{"name": "color.background.neutral.subtle.\##(String(format: "%07d", i))", "color": "#\##(String(format: "%06x", i * 65_000))"}"## }
        let big = try live.request("POST", "/v1/contrast/matrix?format=svg", body: #"{"colors": [\#(ordinary.joined(separator: ","))]}"#)
        #expect(big.status == 200 && big.body.count > 20_000_000, "\(big.statusLine) \(big.body.count)")
    }
}
