// Typed calls as a generated file that is stale would make them: naming a class, a property and
// a command the library does not register. Not generated, and declared only by the test that
// calls them (test_outside.c): each must fail with MVVM_ERR_INTERNAL, never crash.
import MVVMExport

private let noSuchClass = TypedCall.Class("no_such_class")
private let greeter = TypedCall.Class("greeter")

@_cdecl("mvvm_sample_stale_class_get")
public func staleClassGet(_ handle: UInt64, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    TypedCall.get(handle, noSuchClass.property("count"), out)
}

@_cdecl("mvvm_sample_stale_property_get")
public func stalePropertyGet(_ handle: UInt64, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    TypedCall.get(handle, greeter.property("no_such_property"), out)
}

@_cdecl("mvvm_sample_stale_command")
public func staleCommand(_ handle: UInt64) -> Int32 {
    TypedCall.command(handle, greeter.command("no_such_command"))
}
