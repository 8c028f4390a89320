import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Closes a connection that is too slow to send a request: the head must be complete within `header` of the
/// connection opening, the body within `body` of the head, and a kept-alive connection must start its next
/// request within `idle` of the last answer. Without it a client that sends half a request holds its connection
/// (and a file descriptor) forever.
///
/// It sits after HTTP decoding, so it sees whole heads, body parts and ends; while a request is being answered no
/// deadline runs.
final class RequestDeadlines: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let header: TimeAmount
    private let body: TimeAmount
    private let idle: TimeAmount
    private var deadline: Scheduled<Void>?

    init(header: Duration, body: Duration, idle: Duration) {
        self.header = TimeAmount(header)
        self.body = TimeAmount(body)
        self.idle = TimeAmount(idle)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(header, context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(header, context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: arm(body, context: context)
        case .body: break
        case .end: disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { arm(idle, context: context) }
        context.write(data, promise: promise)
    }

    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        disarm()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}

extension TimeAmount {
    /// The same span as a `TimeAmount` (nanoseconds).
    init(_ duration: Duration) {
        let parts = duration.components
        self = .nanoseconds(parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000)
    }
}
