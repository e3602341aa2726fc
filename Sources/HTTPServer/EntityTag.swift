/// Entity-tag validators (RFC 9110 §8.8.3), shared by ``StaticFiles`` and the service's
/// caching of GET answers.
public enum EntityTag {
    /// Whether an `If-None-Match` field value matches `etag`, with the weak comparison this
    /// field prescribes (RFC 9110 §13.1.2: `W/` is ignored on both sides): `*`, or a
    /// comma-separated list holding the tag.
    ///
    /// ```swift
    /// EntityTag.ifNoneMatch(#"W/"x", "y""#, matches: #""y""#)   // true
    /// ```
    public static func ifNoneMatch(_ header: String, matches etag: String) -> Bool {
        let ours = etag.hasPrefix("W/") ? etag.dropFirst(2) : Substring(etag)
        for part in header.split(separator: ",") {
            var candidate = Compression.trim(part)
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            if candidate == ours { return true }
        }
        return false
    }
}
