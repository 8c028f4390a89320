import CoreMetrics
import Foundation
import NIOCore
import Prometheus

/// What the gateway counts, through swift-metrics, into a Prometheus registry of its own that `GET /metrics` shows:
///
/// - `dce_gateway_requests_total{path, status, schema}`: every answer (`schema` only for known schemas, else
///   `unknown`, and empty where there is none: a client cannot add series at will);
/// - `dce_gateway_caller_requests_total{caller, status}`: every answer to a known caller (its key's name, `sub:` and
///   its token's subject, or `anonymous`): the first ``maxCallerSeries`` callers by name, the rest as `other`, so
///   that subjects without number cannot add series without end; never a credential;
/// - `dce_gateway_validation_duration_seconds{schema}`: opening, validating and answering, as a histogram;
/// - `dce_gateway_idempotency_total{outcome}`: `replayed`, `conflict`, `inProgress`, `full`;
/// - `dce_gateway_refusals_total{reason}`: a refusal's rule code, or `invalid` for a request validation rejected;
/// - `dce_gateway_catalogue_info{version}` (1 for the version served, 0 for those served before) and
///   `dce_gateway_catalogue_expiry_timestamp_seconds`, so that an alert can fire before clients stop using it;
/// - `dce_gateway_ready`: 1 when `GET /readyz` last answered ready, 0 when it did not or a shutdown began.
///
/// `@unchecked Sendable`: `callers` is read and written only under `lock`.
final class GatewayMetrics: @unchecked Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let lock = NSLock()
    private var callers: Set<String> = []
    /// The most callers counted by name.
    static let maxCallerSeries = 200

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Validation takes micro- to milliseconds: the default buckets start at 5 ms.
        factory.durationHistogramBuckets["dce_gateway_validation_duration_seconds"] = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .seconds(1),
        ]
        self.factory = factory
    }

    func answered(path: String, status: Int, schema: String?) {
        Counter(
            label: "dce_gateway_requests_total",
            dimensions: [("path", path), ("status", String(status)), ("schema", schema ?? "")],
            factory: factory
        ).increment()
    }

    func answered(caller: String, status: Int) {
        let label = lock.withLock {
            if callers.contains(caller) { return caller }
            guard callers.count < Self.maxCallerSeries else { return "other" }
            callers.insert(caller)
            return caller
        }
        Counter(
            label: "dce_gateway_caller_requests_total", dimensions: [("caller", label), ("status", String(status))],
            factory: factory
        ).increment()
    }

    func validated(schema: String, in duration: Duration) {
        let nanoseconds = TimeAmount(duration).nanoseconds
        CoreMetrics.Timer(
            label: "dce_gateway_validation_duration_seconds", dimensions: [("schema", schema)], factory: factory
        )
        .recordNanoseconds(nanoseconds)
    }

    func idempotency(_ outcome: String) {
        Counter(label: "dce_gateway_idempotency_total", dimensions: [("outcome", outcome)], factory: factory)
            .increment()
    }

    func refused(_ reason: String) {
        Counter(label: "dce_gateway_refusals_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    func serving(_ catalogue: Gateway.Catalogue, previous: Gateway.Catalogue?) {
        if let previous, previous.version != catalogue.version {
            Gauge(label: "dce_gateway_catalogue_info", dimensions: [("version", previous.version)], factory: factory)
                .record(0)
        }
        Gauge(label: "dce_gateway_catalogue_info", dimensions: [("version", catalogue.version)], factory: factory)
            .record(1)
        Gauge(label: "dce_gateway_catalogue_expiry_timestamp_seconds", factory: factory).record(
            catalogue.expires.timeIntervalSince1970)
    }

    func ready(_ isReady: Bool) {
        Gauge(label: "dce_gateway_ready", factory: factory).record(isReady ? 1 : 0)
    }

    /// The Prometheus text exposition of everything counted.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}
