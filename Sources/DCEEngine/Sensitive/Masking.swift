/// The masked form of a sensitive value, as `maskingRequired` asks: `XXXXXXXXXXXX4215`.
public enum Masking {
    /// Replaces every character but the last four with `X`; a value shorter than 12 characters (a PIN, a CVV, an
    /// expiry) is masked entirely, since its last four characters would be most or all of it.
    ///
    /// - Parameter value: The sensitive value.
    /// - Returns: A string of the same number of characters that reveals at most the last four.
    public static func mask(_ value: String) -> String {
        let characters = Array(value)
        let revealed = characters.count >= 12 ? 4 : 0
        return String(repeating: "X", count: characters.count - revealed) + String(characters.suffix(revealed))
    }
}
