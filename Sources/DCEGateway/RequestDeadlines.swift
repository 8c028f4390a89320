import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Closes a connection that is too slow to send a request: the head must be complete within `header` of the
/// connection opening, the body within `body` of the head, and a kept-alive connection must start its next
/// request within `idle` of the last answer. Without it a client that sends half a request holds its connection
/// (and a file descriptor) forever.
///
/// And answers, then closes, a request answered before its body was read (413, 415): the answer says
/// `Connection: close`, the gateway's side of the connection is shut once it is out, and what the client still
/// sends is read and dropped (a *lingering close*, as nginx does) for at most `linger` between reads and
/// `lingerTotal` in all, so that a client that writes its whole body before it reads (Python's `urllib`) gets the
/// answer at once instead of waiting for a timeout, and one that keeps sending, however slowly, is cut off.
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
    private let linger: TimeAmount
    private let lingerTotal: TimeAmount
    private var deadline: Scheduled<Void>?
    /// When a draining connection is closed however the client sends.
    private var lingerEnd: Scheduled<Void>?
    /// A request's head was read and not yet its end.
    private var requestOpen = false
    /// The answer being written came before the end of its request.
    private var answeredEarly = false
    /// The answer to an unfinished request is out: what arrives now is dropped until the connection closes.
    private var draining = false

    init(
        header: Duration, body: Duration, idle: Duration, linger: Duration = .seconds(2),
        lingerTotal: Duration = .seconds(30)
    ) {
        self.header = TimeAmount(header)
        self.body = TimeAmount(body)
        self.idle = TimeAmount(idle)
        self.linger = TimeAmount(linger)
        self.lingerTotal = TimeAmount(lingerTotal)
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
        lingerEnd?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        lingerEnd?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if draining {
            arm(linger, context: context)
            return
        }
        switch unwrapInboundIn(data) {
        case .head:
            requestOpen = true
            arm(body, context: context)
        case .body: break
        case .end:
            requestOpen = false
            disarm()
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // While draining nothing upstream asks for more: ask here, so that the client's writes complete.
        if draining { return context.read() }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where requestOpen:
            answeredEarly = true
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where answeredEarly:
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { _ in self.drain(context: context) }
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
        case .end:
            arm(idle, context: context)
            context.write(data, promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }

    /// Once the answer to an unfinished request is out: shuts the gateway's side, then drops what the client still
    /// sends until it closes, or sends nothing for `linger`.
    private func drain(context: ChannelHandlerContext) {
        guard !draining else { return }
        draining = true
        context.close(mode: .output, promise: nil)
        arm(linger, context: context)
        let channel = context.channel
        lingerEnd = context.eventLoop.scheduleTask(in: lingerTotal) { channel.close(promise: nil) }
        context.read()
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
