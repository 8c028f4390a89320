import DCETestSupport
import Foundation

extension GatewayProcess {
    /// A gateway with fresh keys and its log in `directory`, listening.
    convenience init(in directory: URL, options: [String] = []) throws {
        try self.init(keys: directory.appendingPathComponent("keys"), in: directory, arguments: options)
    }
}
