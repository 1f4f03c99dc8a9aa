import MVVMCombine

/// A view model in the `transform(input:) -> Output` style: the view hands over publishers of
/// its events once and receives publishers of what to show.
public protocol TransformViewModel {
    associatedtype Input
    associatedtype Output
    func transform(input: Input) -> Output
}

/// The user's actions a view sends to a view model: subjects, one per action.
public protocol InputObject: AnyObject {}

/// The values a view both shows and edits, two-way bound (text fields, toggles).
public protocol BindingObject: ObservableObject {}

/// The values a view only shows.
public protocol OutputObject: ObservableObject {}

/// A view model in the Input / Binding / Output style: `input` takes actions, `binding` holds
/// what the view edits, `output` what it shows. It changes whenever its binding or its output
/// is about to change.
public protocol ViewModelObject: ObservableObject where ObjectWillChangePublisher == AnyPublisher<Void, Never> {
    associatedtype Input: InputObject
    associatedtype Binding: BindingObject
    associatedtype Output: OutputObject
    var input: Input { get }
    var binding: Binding { get }
    var output: Output { get }
}

extension ViewModelObject where Binding.ObjectWillChangePublisher.Failure == Never,
                                Output.ObjectWillChangePublisher.Failure == Never {
    /// The view model's change signal: its binding's or its output's, merged.
    public static func objectWillChange(binding: Binding, output: Output) -> AnyPublisher<Void, Never> {
        binding.objectWillChange.map { _ in () }
            .merge(with: output.objectWillChange.map { _ in () })
            .eraseToAnyPublisher()
    }
}
