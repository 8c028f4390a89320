/// The reference data the rules read: currency and country codes, card brands, address formats. Data files, not code: they live in
/// `Schemas/reference/` beside the schemas, are read and compiled once with them, and travel with a signed catalogue
/// (as documents named `reference/<id>`), so that a new BIN range or a new currency reaches apps without a release.
///
/// A source that holds no reference data of a kind uses the data bundled with the package.
public final class ReferenceData: Sendable {
    /// ISO 4217: the `iso4217` formats.
    public let currencies: CodeList
    /// ISO 3166-1 alpha-2: the `iso3166-alpha2` formats.
    public let countries: CodeList
    /// Card brands: the `card-number` formats, `cardBrand` conditions and `cardBrandOf` derive rules.
    public let cardBrands: CardBrands
    /// Address formats by country: the `postalAddress` attribute.
    public let addresses: AddressFormats

    /// The identifier of each kind of reference data: the file name in `reference/` and the document name
    /// (`reference/<id>`) in a catalogue.
    static let kinds: [(kind: String, id: String)] = [
        ("currency-codes", "iso4217"), ("country-codes", "iso3166-1"), ("card-brands", "card-brands"),
        ("address-formats", "addresses"),
    ]

    init(currencies: CodeList, countries: CodeList, cardBrands: CardBrands, addresses: AddressFormats) {
        self.currencies = currencies
        self.countries = countries
        self.cardBrands = cardBrands
        self.addresses = addresses
    }
}
