import Foundation

/// Loads the reference fixtures in `Tests/Fixtures/` (JSON Lines) for differential tests.
/// JSON is parsed here, in the test target only; the library never touches JSON or files.
enum FixtureLoader {
    /// `Tests/Fixtures/`, found relative to this source file.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("../Fixtures")
        .standardizedFileURL

    enum FixtureError: Error, CustomStringConvertible {
        case notAnObject(file: String, line: Int)
        var description: String {
            switch self {
            case .notAnObject(let file, let line): return "\(file):\(line) is not a JSON object"
            }
        }
    }

    /// Every non-empty line of `name` as a JSON object.
    static func jsonLines(_ name: String) throws -> [[String: Any]] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        var rows: [[String: Any]] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            guard let row = object as? [String: Any] else {
                throw FixtureError.notAnObject(file: name, line: index + 1)
            }
            rows.append(row)
        }
        return rows
    }

    /// A JSON number as Double (nil for null or a non-number).
    static func double(_ value: Any?) -> Double? {
        switch value {
        case let d as Double: return d
        case let i as Int: return Double(i)
        case let n as NSNumber: return n.doubleValue
        default: return nil
        }
    }

    /// A JSON array of numbers as Doubles (nil if absent or any element is not a number).
    static func doubles(_ value: Any?) -> [Double]? {
        guard let array = value as? [Any] else { return nil }
        var out: [Double] = []
        for element in array {
            guard let d = double(element) else { return nil }
            out.append(d)
        }
        return out
    }

    /// A JSON boolean.
    static func bool(_ value: Any?) -> Bool? {
        switch value {
        case let b as Bool: return b
        case let n as NSNumber: return n.boolValue
        default: return nil
        }
    }
}

extension FixtureLoader {
    /// Largest absolute component of `v`.
    static func maxAbs(_ v: SIMD3<Double>) -> Double {
        max(abs(v.x), abs(v.y), abs(v.z))
    }
}
