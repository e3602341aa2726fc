import Foundation
import JSONValue

/// The repository this test build came from (found relative to this source file).
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The one loader of the reference fixtures in `Tests/Fixtures/` (JSON Lines) for differential
/// tests. A missing file or a line that is not a JSON object throws: a fixture never reads as
/// empty in silence. JSON is parsed here, in the tests only; ColorScience never touches files.
public enum FixtureLoader {
    /// `Tests/Fixtures/`.
    public static let directory: URL = repositoryRoot.appendingPathComponent("Tests/Fixtures")

    public enum FixtureError: Error, CustomStringConvertible {
        case notAnObject(file: String, line: Int)
        case empty(file: String)
        case wrongCount(file: String, expected: Int, found: Int)
        public var description: String {
            switch self {
            case .notAnObject(let file, let line): return "\(file):\(line) is not a JSON object"
            case .empty(let file): return "\(file) holds no rows"
            case .wrongCount(let file, let expected, let found): return "\(file) holds \(found) rows, expected \(expected)"
            }
        }
    }

    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// The non-empty lines of `name`; throws when there are none, or not `expectedCount`.
    static func lines(_ name: String, expectedCount: Int?) throws -> [Substring] {
        let text = try String(contentsOf: url(name), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        if lines.isEmpty { throw FixtureError.empty(file: name) }
        if let expectedCount, lines.count != expectedCount {
            throw FixtureError.wrongCount(file: name, expected: expectedCount, found: lines.count)
        }
        return lines
    }

    /// Every non-empty line of `name` as a Foundation JSON object.
    public static func jsonLines(_ name: String, expectedCount: Int? = nil) throws -> [[String: Any]] {
        var rows: [[String: Any]] = []
        for (index, line) in try lines(name, expectedCount: expectedCount).enumerated() {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            guard let row = object as? [String: Any] else {
                throw FixtureError.notAnObject(file: name, line: index + 1)
            }
            rows.append(row)
        }
        return rows
    }

    /// Every non-empty line of `name` as a strict `JSON` object (the API's own value type).
    public static func jsonValues(_ name: String, expectedCount: Int? = nil) throws -> [JSON] {
        try lines(name, expectedCount: expectedCount).enumerated().map { index, line in
            let value = try JSONParser.parse(String(line))
            guard case .object = value else { throw FixtureError.notAnObject(file: name, line: index + 1) }
            return value
        }
    }

    /// A whole JSON file under `Tests/Fixtures/` (e.g. `palettes/tailwind-v4.json`).
    public static func jsonFile(_ name: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url(name)))
    }

    /// A JSON number as Double (nil for null or a non-number).
    public static func double(_ value: Any?) -> Double? {
        switch value {
        case let d as Double: return d
        case let i as Int: return Double(i)
        case let n as NSNumber: return n.doubleValue
        default: return nil
        }
    }

    /// A JSON array of numbers as Doubles (nil if absent or any element is not a number).
    public static func doubles(_ value: Any?) -> [Double]? {
        guard let array = value as? [Any] else { return nil }
        var out: [Double] = []
        for element in array {
            guard let d = double(element) else { return nil }
            out.append(d)
        }
        return out
    }

    /// A JSON boolean.
    public static func bool(_ value: Any?) -> Bool? {
        switch value {
        case let b as Bool: return b
        case let n as NSNumber: return n.boolValue
        default: return nil
        }
    }

    /// Largest absolute component of `v`.
    public static func maxAbs(_ v: SIMD3<Double>) -> Double {
        max(abs(v.x), abs(v.y), abs(v.z))
    }
}
