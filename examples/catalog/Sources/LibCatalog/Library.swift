// libmvvm.so's one hook. The library the seed designs ship is the catalog, composed as any
// library composes the packages it carries (docs/packages.md): the engine knows no package by name.
import MVVMCatalog

@_cdecl("libmvvm_register_package")
public func registerPackage() {
    Catalog.register()
}
