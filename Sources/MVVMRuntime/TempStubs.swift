// TEMPORARY until the real operators land.
@preconcurrency import OpenCombine
extension Publisher {
    public func merge<P: Publisher>(with other: P) -> AnyPublisher<Output, Failure> where P.Output == Output, P.Failure == Failure {
        Publishers.Sequence<[AnyPublisher<Output, Failure>], Failure>(sequence: [eraseToAnyPublisher(), other.eraseToAnyPublisher()]).flatMap { $0 }.eraseToAnyPublisher()
    }
    public func combineLatest<P: Publisher, T>(_ other: P, _ transform: @escaping (Output, P.Output) -> T) -> AnyPublisher<T, Failure> where P.Failure == Failure {
        let a = map { v -> (Output?, P.Output?) in (v, nil) }.eraseToAnyPublisher()
        let b = other.map { v -> (Output?, P.Output?) in (nil, v) }.eraseToAnyPublisher()
        return a.merge(with: b).scan((Output?.none, P.Output?.none)) { s, n in (n.0 ?? s.0, n.1 ?? s.1) }
            .compactMap { s in s.0.flatMap { x in s.1.map { y in transform(x, y) } } }.eraseToAnyPublisher()
    }
    public func combineLatest<B: Publisher, C: Publisher, D: Publisher>(_ b: B, _ c: C, _ d: D) -> AnyPublisher<(Output, B.Output, C.Output, D.Output), Failure> where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
        combineLatest(b) { ($0, $1) }.combineLatest(c) { ($0.0, $0.1, $1) }.combineLatest(d) { ($0.0, $0.1, $0.2, $1) }
    }
}
