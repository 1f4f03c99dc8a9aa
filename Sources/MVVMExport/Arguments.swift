// The arguments a host passes to a constructor or a command: read from C, bound to the declared
// arguments by position and by name, and accepted by their types. The one place that decides
// what an argument list means: every binding passes its values as they are.
import CMVVM

/// Arguments as a host gave them: values, each with its name or none (positional ones first).
struct GivenArguments {
    let values: [Value]
    /// nil for an argument given by position.
    let names: [String?]

    init(_ values: [Value], names: [String?]? = nil) {
        self.values = values
        self.names = names ?? Array(repeating: nil, count: values.count)
    }

    /// Reads `count` values (and, when `names` is not NULL, their names: a NULL name is an
    /// argument given by position, and those come first).
    init(reading values: UnsafePointer<mvvm_value>?, names: UnsafePointer<UnsafePointer<CChar>?>?,
         count: UInt) throws(ExportError) {
        guard count <= 64 else {
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "count \(count) is out of range (0 to 64)")
        }
        guard count == 0 || values != nil else { throw .nullPointer("args (with count \(count))") }
        var read: [Value] = []
        var readNames: [String?] = []
        for index in 0..<Int(count) {
            read.append(try Value(reading: values! + index, "argument \(index + 1)"))
            guard let names, let name = names[index] else {
                if readNames.last.map({ $0 != nil }) == true {
                    throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "argument \(index + 1) has no name, but an argument "
                                      + "before it has one: arguments by position come first")
                }
                readNames.append(nil)
                continue
            }
            let text = try CString.read(name, "the name of argument \(index + 1)")
            if readNames.contains(text) {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "argument \(CString.echo(text)) is given twice")
            }
            readNames.append(text)
        }
        self.values = read
        self.names = readNames
    }

    /// "2 arguments", "1 argument (named seed)".
    var summary: String {
        let named = names.compactMap { $0 }
        return "\(values.count) argument\(values.count == 1 ? "" : "s")"
            + (named.isEmpty ? "" : " (named \(named.joined(separator: ", ")))")
    }

    enum BindFailure: Error {
        /// The arguments do not name or number these: another constructor may fit.
        case shape(ExportError)
        /// They do, but a value is refused: the error names it.
        case mismatch(ExportError)
    }

    /// The values for `arguments` in their declared order: by position, then by name; an
    /// optional argument not given is null. Each value is accepted by its argument's type (an
    /// object for a model or a service).
    func bind(to arguments: [ExportedArgument], of call: CallName) -> Result<[Value], BindFailure> {
        // Nothing given to a call that takes nothing, the usual command: nothing to bind.
        if values.isEmpty && arguments.isEmpty { return .success([]) }
        var bound = [Value?](repeating: nil, count: arguments.count)
        for (index, (value, name)) in zip(values, names).enumerated() {
            if let name {
                guard let at = arguments.firstIndex(where: { $0.name == name }) else {
                    return .failure(.shape(ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(call.text) has no argument named "
                                                       + "\(CString.echo(name))")))
                }
                guard bound[at] == nil else {
                    return .failure(.shape(ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(call.text): argument \(name) is given "
                                                       + "by position and by name")))
                }
                bound[at] = value
            } else {
                guard index < arguments.count else {
                    return .failure(.shape(ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(call.text) takes \(arguments.count) "
                                                       + "argument\(arguments.count == 1 ? "" : "s"), not \(summary)")))
                }
                bound[index] = value
            }
        }
        var accepted: [Value] = []
        accepted.reserveCapacity(arguments.count)
        for (index, argument) in arguments.enumerated() {
            var what: String { call.argument(index, argument.name) }
            guard let value = bound[index] else {
                guard case .value = argument.kind, argument.shape.isOptional else {
                    return .failure(.shape(ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what) is missing")))
                }
                accepted.append(.null)
                continue
            }
            switch argument.kind {
            case .value:
                do throws(ExportError) {
                    accepted.append(try argument.shape.accept(value, what))
                } catch {
                    return .failure(.mismatch(error))
                }
            case .model, .service:
                guard value.type == .object else {
                    return .failure(.mismatch(ExportError(MVVM_ERR_TYPE_MISMATCH, "\(what) is \(argument.typeName), "
                                                          + "not \(value.type.name)")))
                }
                accepted.append(value)
            }
        }
        return .success(accepted)
    }
}

extension Result where Failure == GivenArguments.BindFailure {
    /// The values, or the error either failure carries.
    func values() throws(ExportError) -> Success {
        switch self {
        case let .success(values): return values
        case let .failure(.shape(error)), let .failure(.mismatch(error)): throw error
        }
    }
}
