// libhand.so: the same view models registered by hand.
import Expenses

@_cdecl("libmvvm_register_package")
public func registerPackage() { registerExpensesByHand() }
