import JSONValue

// Where things are written in a JSON token file. `JSONParser` (JSONValue) gives values but no
// positions, and every token must carry a real line and column (reports and SARIF results point
// at it), so the raw text is scanned once more here.

/// The 1-based line and column (in Unicode scalars) of every object member's key in a JSON text,
/// by member path (`["color", "text", "default"]`), and of every array element that is an object
/// or an array (by its index as a string: `["entities", "5"]`; the position of its `{` or `[`).
///
/// One pass over the UTF-8 bytes: the positions form a tree of small dictionaries (one per object
/// or array), so a lookup costs the path's length. Scalar array elements are not recorded (no
/// token is one, and a long array of numbers would cost a dictionary entry each). The scanner
/// assumes text `JSONParser` accepted; on other text it records what it can and never traps.
struct JSONLocations: Sendable {
    /// A recorded member: where its key (or element) starts, and the container it holds, if any.
    struct Entry: Sendable {
        var line: Int32
        var column: Int32
        /// Index into `nodes` of the object or array the member holds; -1 for a scalar.
        var node: Int32
    }

    /// One dictionary per object or array, key (or element index) → entry.
    private var nodes: [[String: Entry]] = []
    /// The node of the document's root container, -1 when the root is a scalar.
    private var root: Int32 = -1

    init(_ text: String) {
        self.init(bytes: Array(text.utf8))
    }

    init(bytes: [UInt8]) {
        scan(bytes)
    }

    /// Line and column of the member at `path` (keys from the root; array elements by index).
    func position(_ path: [String]) -> (line: Int, column: Int)? {
        guard !path.isEmpty else { return root >= 0 ? (1, 1) : nil }
        var node = root
        var found: Entry? = nil
        for key in path {
            guard node >= 0, let entry = nodes[Int(node)][key] else { return nil }
            found = entry
            node = entry.node
        }
        return found.map { (Int($0.line), Int($0.column)) }
    }

    /// `position(path)` as a `TokenLocation` in `file`; line 1, column 1 when the path was not
    /// recorded (a value synthesised by a reader, never a member of the text).
    func location(_ path: [String], file: String) -> TokenLocation {
        let p = position(path) ?? (1, 1)
        return TokenLocation(file: file, line: p.line, column: p.column)
    }

    /// Line and column of the byte at `offset` (clamped to the text), as `JSONParseError` reports
    /// offsets.
    static func lineColumn(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var i = 0
        let end = min(max(offset, 0), bytes.count)
        while i < end {
            let b = bytes[i]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return (line, column)
    }

    // MARK: - The scan

    private struct Frame {
        var node: Int32
        var isObject: Bool
        /// Next element index (arrays).
        var count: Int
        /// The last key read (objects), to attach a container value to.
        var key: String
        /// Whether the next string in this object is a key.
        var expectsKey: Bool
    }

    private mutating func scan(_ bytes: [UInt8]) {
        var stack: [Frame] = []
        var line: Int32 = 1
        var column: Int32 = 1
        var i = 0
        let n = bytes.count

        /// Records an array element starting here (containers only: `node` >= 0).
        func recordElement(_ stack: inout [Frame], _ nodes: inout [[String: Entry]], node: Int32) {
            guard let top = stack.last, !top.isObject else { return }
            let index = top.count
            stack[stack.count - 1].count += 1
            if node >= 0 { nodes[Int(top.node)][String(index)] = Entry(line: line, column: column, node: node) }
        }

        while i < n {
            let b = bytes[i]
            switch b {
            case 0x0A:
                line += 1
                column = 1
                i += 1
                continue
            case 0x20, 0x09, 0x0D, UInt8(ascii: ":"):
                break
            case UInt8(ascii: ","):
                if let top = stack.last, top.isObject { stack[stack.count - 1].expectsKey = true }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let node = Int32(nodes.count)
                nodes.append([:])
                if let top = stack.last {
                    if top.isObject {
                        nodes[Int(top.node)][top.key]?.node = node
                    } else {
                        recordElement(&stack, &nodes, node: node)
                    }
                } else {
                    root = node
                }
                stack.append(Frame(node: node, isObject: b == UInt8(ascii: "{"), count: 0, key: "", expectsKey: b == UInt8(ascii: "{")))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: "\""):
                let startLine = line
                let startColumn = column
                let isKey = stack.last.map { $0.isObject && $0.expectsKey } ?? false
                var j = i + 1
                var hasEscape = false
                // Find the closing quote; columns advance per scalar (non-continuation byte).
                while j < n {
                    let c = bytes[j]
                    if c == UInt8(ascii: "\"") { break }
                    if c == UInt8(ascii: "\\") {
                        hasEscape = true
                        j += 2
                        column += 2
                        continue
                    }
                    if c & 0xC0 != 0x80 { column += 1 }
                    j += 1
                }
                let end = min(j, n)
                if isKey {
                    let key = hasEscape ? Self.unescaped(bytes[(i + 1)..<end])
                                        : String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
                    let top = stack.count - 1
                    nodes[Int(stack[top].node)][key] = Entry(line: startLine, column: startColumn, node: -1)
                    stack[top].key = key
                    stack[top].expectsKey = false
                } else {
                    recordElement(&stack, &nodes, node: -1)
                }
                column += 2  // both quotes
                i = end + 1
                continue
            default:
                // A number or literal: one scalar value, all ASCII.
                recordElement(&stack, &nodes, node: -1)
                var j = i
                while j < n {
                    let c = bytes[j]
                    if c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]")
                        || c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D { break }
                    if c & 0xC0 != 0x80 { column += 1 }
                    j += 1
                }
                i = j
                continue
            }
            column += 1
            i += 1
        }
    }

    /// The text of a JSON string body with its escapes undone (`\n`, `\"`, `\u00e9`, surrogate
    /// pairs), as `JSONParser` decodes keys, so paths match the parsed object's keys.
    static func unescaped(_ body: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var i = body.startIndex
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= body.endIndex else { return nil }
            var v: UInt32 = 0
            for k in at..<(at + 4) {
                let c = body[k]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
                default: return nil
                }
                v = v << 4 | d
            }
            return v
        }
        while i < body.endIndex {
            let c = body[i]
            guard c == UInt8(ascii: "\\"), i + 1 < body.endIndex else {
                out.append(c)
                i += 1
                continue
            }
            let e = body[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(i) else { continue }
                i += 4
                if (0xD800...0xDBFF).contains(scalar), i + 1 < body.endIndex, body[i] == UInt8(ascii: "\\"),
                   body[i + 1] == UInt8(ascii: "u"), let low = hex4(i + 2), (0xDC00...0xDFFF).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                if let u = Unicode.Scalar(scalar) { out.append(contentsOf: Array(String(Character(u)).utf8)) }
            default: out.append(e)  // \" \\ \/
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A JSON token file parsed once: its value tree and (computed on first use) the positions of
/// its members. Readers share it so a file is parsed once whether or not detection ran first.
/// Used by one reader on one thread (not `Sendable`: the positions are cached on first use).
final class JSONTokenDocument {
    let file: TokenFile
    let bytes: [UInt8]
    let root: JSON
    private var _locations: JSONLocations?

    private init(file: TokenFile, bytes: [UInt8], root: JSON) {
        self.file = file
        self.bytes = bytes
        self.root = root
    }

    /// The file's name (used in every location and message).
    var name: String { file.name }

    /// Member positions (scanned on first use).
    var locations: JSONLocations {
        if let l = _locations { return l }
        let l = JSONLocations(bytes: bytes)
        _locations = l
        return l
    }

    /// Where the member at `path` is written.
    func location(_ path: [String]) -> TokenLocation {
        locations.location(path, file: file.name)
    }

    /// Parses `file` as strict JSON, nested at most `TokenFormats.maximumDepth` levels.
    /// - Throws: `TokenError` naming the file, the line and column where reading stopped, the
    ///   JSON pointer of the value being read and why (a depth beyond the limit included).
    static func parse(_ file: TokenFile) throws(TokenError) -> JSONTokenDocument {
        var bytes = Array(file.content.utf8)
        // A UTF-8 byte-order mark is not JSON (RFC 8259 §8.1) but editors write it; columns
        // are counted after it, as editors show them.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        do {
            let root = try JSONParser.parse(bytes, maxDepth: TokenFormats.maximumDepth)
            return JSONTokenDocument(file: file, bytes: bytes, root: root)
        } catch {
            let (line, column) = JSONLocations.lineColumn(ofByte: error.offset, in: bytes)
            let at = error.pointer.isEmpty ? "" : " (in \(error.pointer))"
            throw TokenError(file: file.name, location: TokenLocation(file: file.name, line: line, column: column),
                             reason: "not valid JSON: \(error.reason)\(at)")
        }
    }

    /// Whether `file` looks like JSON at all (its first non-space character opens an object or
    /// an array); CSS and other text is not parsed as JSON.
    /// CSS may start with `[`, an attribute selector (`[data-color-mode="light"] {`): an array
    /// counts only when a JSON value or its end follows the bracket.
    static func looksLikeJSON(_ file: TokenFile) -> Bool {
        var afterBracket = false
        for b in file.content.utf8 {
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF: continue  // whitespace, a UTF-8 BOM
            case UInt8(ascii: "{"): return true
            case UInt8(ascii: "["):
                if afterBracket { return true }
                afterBracket = true
            case UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return afterBracket
            default:
                return false
            }
        }
        return false
    }
}
