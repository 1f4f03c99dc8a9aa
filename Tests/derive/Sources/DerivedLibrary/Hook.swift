// libderived.so: the view models registered by the registration derived from their code.
import Expenses

@_cdecl("libmvvm_register_package")
public func registerPackage() { registerExpensesExports() }
