// Close-match suggestions for misspelt names ("did you mean …"): case-insensitive Levenshtein
// distance (V. I. Levenshtein, 1966) with a substring fallback. Used for CSS named colors here and
// for any other catalog of names above the core.

/// Close-match suggestions for misspelt names (case-insensitive edit distance).
public enum NameSuggestions {
    /// Whether `text` looks like a misspelt name worth suggesting for: 1 to `maxLength` bytes
    /// of ASCII letters and digits only (not CSS syntax such as `#…` or `rgb(…)`).
    public static func isPlainName(_ text: String, maxLength: Int = 64) -> Bool {
        !text.isEmpty && text.utf8.count <= maxLength
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    /// Up to `limit` candidates whose case-insensitive Levenshtein distance to `text` is at most
    /// a third of the longer name (at least 2), or that contain `text` (≥ 3 characters) as a
    /// substring; a candidate `text` (≥ 2 characters) begins comes first after an exact match;
    /// closest first, catalog order on ties.
    public static func suggestions(for text: String, among candidates: [String], limit: Int = 3) -> [String] {
        let lowered = String(text.lowercased().unicodeScalars.prefix(64))
        let needle = Array(lowered.unicodeScalars)
        guard !needle.isEmpty, limit > 0 else { return [] }
        var scored: [(score: Int, order: Int, name: String)] = []
        for (order, name) in candidates.enumerated() {
            let lowerName = name.lowercased()
            let hay = Array(lowerName.unicodeScalars)
            let d = distance(needle, hay)
            let allowed = max(2, max(needle.count, hay.count) / 3)
            if d > 0, needle.count >= 2, lowerName.hasPrefix(lowered) {
                // A name the text begins comes first (`XXL` for `xxLarge`: edit distance alone
                // offered AX1, AX2 and AX3, a new user's pass); an exact match stays before it.
                scored.append((-1, order, name))
            } else if d <= allowed {
                scored.append((d == 0 ? -2 : d, order, name))
            } else if needle.count >= 3, lowerName.contains(lowered) {
                scored.append((allowed + 1 + hay.count - needle.count, order, name))
            }
        }
        scored.sort { ($0.score, $0.order) < ($1.score, $1.order) }
        return scored.prefix(limit).map(\.name)
    }

    /// Levenshtein distance between two scalar arrays (case-sensitive; inputs are short: at most
    /// 64 scalars, so the cost is at most 64² steps).
    public static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
