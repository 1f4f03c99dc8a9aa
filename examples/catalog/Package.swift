// swift-tools-version:6.0
// The catalog: the models and view models of five well-known MVVM designs (a countdown timer, a
// stopwatch, a sign-up form, a `transform(input) -> output` screen, composable counters), written
// as Swift developers write them, and exported through libmvvm's export API as any user's package
// exports its own (docs/catalog.md). It depends on libmvvm by path, as a user's package would.
// Its dynamic library, libcatalog.so, carries the whole mvvm_* ABI with the catalog's classes;
// `make catalog` copies it to build/catalog/libcatalog.so, the demo's and most tests' library.
import PackageDescription

let package = Package(
    name: "catalog",
    products: [
        // libcatalog.so: the ABI of mvvm.h with the catalog's classes, whose typed calls are
        // declared in include/mvvm_catalog.h; only mvvm_* symbols leave it (the Makefile links it
        // with libmvvm's version script).
        .library(name: "catalog", type: .dynamic, targets: ["LibCatalog"]),
        // For a library that carries the catalog beside its own classes: its hook calls
        // Catalog.register() (docs/packages.md, "Composing packages").
        .library(name: "MVVMCatalog", targets: ["MVVMCatalog"]),
        .library(name: "MVVMModels", targets: ["MVVMModels"]),
        .library(name: "MVVMViewModels", targets: ["MVVMViewModels"]),
    ],
    dependencies: [
        .package(name: "libmvvm", path: "../.."),
    ],
    targets: [
        // Models know nothing of view models; view models know nothing of C.
        // Written as Combine code is, with `import MVVMCombine` for `import Combine`.
        .target(name: "MVVMModels", dependencies: [
            .product(name: "MVVMCombine", package: "libmvvm"),
        ]),
        .target(name: "MVVMViewModels", dependencies: [
            "MVVMModels",
            .product(name: "MVVMCombine", package: "libmvvm"),
        ]),
        // The registration and the generated typed calls.
        .target(name: "MVVMCatalog", dependencies: [
            "MVVMModels", "MVVMViewModels",
            .product(name: "MVVMExport", package: "libmvvm"),
            .product(name: "MVVMCombine", package: "libmvvm"),
        ]),
        // libcatalog.so's hook: a library composed of the catalog alone.
        .target(name: "LibCatalog", dependencies: [
            "MVVMCatalog",
            .product(name: "MVVMExport", package: "libmvvm"),
        ]),
        // The view models from Swift, without the C layer: `swift run catalog-swift-demo`.
        .executableTarget(name: "catalog-swift-demo", dependencies: [
            "MVVMModels", "MVVMViewModels",
            .product(name: "MVVMCombine", package: "libmvvm"),
        ]),
        // The Swift-native baseline of the benchmarks (make bench: Tests/bench).
        .executableTarget(name: "catalog-bench", dependencies: [
            "MVVMViewModels",
            .product(name: "MVVMCombine", package: "libmvvm"),
        ]),
        .testTarget(name: "CatalogTests", dependencies: [
            "MVVMModels", "MVVMViewModels",
            .product(name: "MVVMCombine", package: "libmvvm"),
        ]),
    ]
)
