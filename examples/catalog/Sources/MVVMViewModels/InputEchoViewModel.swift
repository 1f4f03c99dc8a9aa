import MVVMCombine

/// A text field echoed back: the label repeats the input, the message quotes it.
public final class InputEchoViewModel: ObservableObject {
    @Published public var input = ""
    @Published public private(set) var label = ""
    @Published public private(set) var message = InputEchoViewModel.message(for: "")

    public init() {
        $input.assign(to: &$label)
        $input.map(Self.message(for:)).assign(to: &$message)
    }

    public static func message(for input: String) -> String {
        "Your input is '\(input)'!"
    }
}
