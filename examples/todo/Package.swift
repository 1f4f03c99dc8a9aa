// swift-tools-version:6.0
// The todo app (docs/catalog.md, "The todo app", after TodoMVC's app spec): an outside user of libmvvm's
// export API, depending on it by path as any user's package would. Models (TodoModels: Todo,
// TodoStore and its SQLite database, through GRDB) apart from view models (TodoViewModels:
// ObservableObjects over Combine), and one registration (TodoExport). Its dynamic library, libtodo.so,
// carries the whole mvvm_* ABI with its classes and no others (not the catalog's); `make todo` copies
// it to build/todo/libtodo.so.
import PackageDescription

// The fuzzers drive the catalog's classes through libtodo.so too: Tests/fuzz/build.sh builds it (in a
// scratch folder of its own) with MVVM_WITH_CATALOG=1, and its hook then registers the catalog beside
// the todo app, as any library that asks for the catalog does.
let withCatalog = Context.environment["MVVM_WITH_CATALOG"] == "1"

let package = Package(
    name: "todo",
    products: [
        .library(name: "todo", type: .dynamic, targets: ["TodoExport"]),
    ],
    dependencies: [
        .package(name: "libmvvm", path: "../.."),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
        // SQLite, through the Swift ecosystem's toolkit for it (built against Debian's libsqlite3-dev).
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
    ] + (withCatalog ? [.package(name: "catalog", path: "../catalog")] : []),
    targets: [
        .target(name: "TodoModels", dependencies: [
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        .target(name: "TodoViewModels", dependencies: [
            "TodoModels",
            .product(name: "MVVMRuntime", package: "libmvvm"),
            .product(name: "OpenCombine", package: "OpenCombine"),
        ]),
        .target(name: "TodoExport", dependencies: [
            "TodoModels", "TodoViewModels",
            .product(name: "MVVMExport", package: "libmvvm"),
            .product(name: "MVVMRuntime", package: "libmvvm"),
        ] + (withCatalog ? [.product(name: "MVVMCatalog", package: "catalog")] : []),
        swiftSettings: withCatalog ? [.define("MVVM_WITH_CATALOG")] : []),
        .testTarget(name: "TodoViewModelTests", dependencies: ["TodoModels", "TodoViewModels"]),
    ]
)
