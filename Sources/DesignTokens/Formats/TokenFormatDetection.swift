// PLACEHOLDER until the format readers land (branch tokens-json replaces this file).
public enum TokenFormats {
    public static func detect(_ files: [TokenFile]) -> TokenFormat? { nil }
    public static func read(_ files: [TokenFile], format: TokenFormat?) throws(TokenError) -> TokenSet {
        throw TokenError(reason: "no format readers yet")
    }
}
