// A @MainActor view model in a target kept in Swift 5 language mode (code not yet Swift 6
// clean), registered the same way.
import MVVMExport
import OpenCombine

@MainActor
public final class VoteViewModel: ObservableObject {
    @Published public private(set) var votes = 0
    public init() {}
    public func vote() { votes += 1 }
}

public func registerSwift5Classes() {
    Exports.register(VoteViewModel.self, isolation: .mainActor) { c in
        c.output("votes") { $0.votes }
        c.command("vote") { $0.vote() }
        c.constructor { _ in VoteViewModel() }
    }
}
