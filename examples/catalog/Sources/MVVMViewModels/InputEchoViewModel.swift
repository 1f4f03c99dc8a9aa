import MVVMCombine

// A text field echoed back: the label repeats the input, the message quotes it.
/// Echoes its input.
public final class InputEchoViewModel: ObservableObject {
    /// What the user typed.
    @Published public var input = ""
    /// The input.
    @Published public private(set) var label = ""
    /// "Your input is '<input>'!"
    @Published public private(set) var message = InputEchoViewModel.message(for: "")

    /// Empty input.
    public init() {
        $input.assign(to: &$label)
        $input.map(Self.message(for:)).assign(to: &$message)
    }

    public static func message(for input: String) -> String {
        "Your input is '\(input)'!"
    }
}
