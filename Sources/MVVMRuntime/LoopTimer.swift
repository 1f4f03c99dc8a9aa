@preconcurrency import OpenCombine

extension Publishers {
    /// A publisher that repeatedly emits the loop's current time on the given interval.
    ///
    /// The counterpart, on a ``Loop``, of `Timer.publish(every:on:in:).autoconnect()`: the
    /// timer starts when a subscriber first requests a value, fires first one interval later,
    /// and stops when the subscription is cancelled. A tick that finds no demand is dropped, as
    /// Foundation's timer publisher drops it.
    public struct LoopTimer: Publisher {
        public typealias Output = LoopTime
        public typealias Failure = Never

        /// The loop the timer runs on.
        public let loop: Loop

        /// The time between ticks.
        public let interval: LoopTime.Stride

        public init(loop: Loop, interval: LoopTime.Stride) {
            self.loop = loop
            self.interval = interval
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == LoopTime, S.Failure == Never {
            subscriber.receive(subscription: Inner(loop: loop, interval: interval, downstream: subscriber))
        }
    }
}

extension Publishers.LoopTimer {
    private final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible
    where Downstream.Input == LoopTime, Downstream.Failure == Never
    {
        private let lock = InlineLock()
        private let loop: Loop
        private let interval: LoopTime.Stride
        /// The subscriber, in memory of its own type until `cancel` lets go of it (guarded by
        /// `lock`). Not an Optional: this code runs unspecialised (OpenCombine subscribes it from
        /// its generic code), where each touch of an `Optional<Downstream>` asks the runtime for
        /// its metadata, about 450 instructions on every tick.
        private let downstream = UnsafeMutablePointer<Downstream>.allocate(capacity: 1)
        private var isSubscribed = true
        private var demand = Subscribers.Demand.none
        private var timer: Cancellable?

        init(loop: Loop, interval: LoopTime.Stride, downstream: Downstream) {
            self.loop = loop
            self.interval = interval
            self.downstream.initialize(to: downstream)
        }

        deinit {
            if isSubscribed { downstream.deinitialize(count: 1) }
            downstream.deallocate()
        }

        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Invalid request of zero demand")
            lock.lock()
            guard isSubscribed else { lock.unlock(); return }
            self.demand += demand
            let start = timer == nil
            lock.unlock()
            guard start else { return }
            let timer = loop.schedule(after: loop.now.advanced(by: interval), interval: interval) { [weak self] in
                self?.tick()
            }
            lock.lock()
            if !isSubscribed || self.timer != nil {
                lock.unlock()
                timer.cancel()
            } else {
                self.timer = timer
                lock.unlock()
            }
        }

        private func tick() {
            lock.lock()
            guard isSubscribed, demand > 0 else { lock.unlock(); return }
            demand -= 1
            let downstream = self.downstream.pointee
            lock.unlock()
            let more = downstream.receive(loop.now)
            guard more > 0 else { return }
            lock.withLock { if isSubscribed { demand += more } }
        }

        func cancel() {
            lock.lock()
            let timer = self.timer
            self.timer = nil
            // Let go of the subscriber after unlocking: its release may run code that calls back.
            let subscriber = isSubscribed ? downstream.move() : nil
            isSubscribed = false
            lock.unlock()
            timer?.cancel()
            _ = subscriber
        }

        var description: String { "LoopTimer" }
    }
}
