// swift-tools-version:6.0
// A package outside libmvvm that exports view models of its own, as a user's would: it depends on
// libmvvm by path, registers its classes through the public export API, and builds libsample.so,
// which carries the whole mvvm_* ABI with its classes and no others (not the catalog's: it does not
// ask for them). No C, Python, Ruby or Lua
// is written for its classes: Tests/outside/run.sh drives them from each through the generic ABI.
import PackageDescription

// The fuzzers drive the catalog's classes through libsample.so too: Tests/fuzz/build.sh builds it
// (in a scratch folder of its own) with MVVM_WITH_CATALOG=1, and its hook then registers the catalog
// beside its own classes, as any library that asks for the catalog does.
let withCatalog = Context.environment["MVVM_WITH_CATALOG"] == "1"

let package = Package(
    name: "sample",
    products: [
        .library(name: "sample", type: .dynamic, targets: ["Sample"]),
        // A package whose registration breaks every rule: the library refuses to serve. It carries
        // the catalog (its hook registers it), so that a clash with a catalog class is among them.
        .library(name: "badsample", type: .dynamic, targets: ["BadSample"]),
        // View models as apps write them (a @MainActor class, Foundation Timer, the main queue),
        // for the main loop's tests: it imports Foundation, which libmvvm.so itself never links.
        .library(name: "appsample", type: .dynamic, targets: ["AppSample"]),
    ],
    dependencies: [
        .package(name: "libmvvm", path: "../.."),
        // The catalog, for the libraries that carry it (the fuzzers' builds, BadSample).
        .package(name: "catalog", path: "../../examples/catalog"),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        .target(name: "Sample", dependencies: [
            .product(name: "MVVMExport", package: "libmvvm"),
            .product(name: "MVVMFoundation", package: "libmvvm"),
            .product(name: "MVVMRuntime", package: "libmvvm"),
            .product(name: "OpenCombine", package: "OpenCombine"),
        ] + (withCatalog ? [.product(name: "MVVMCatalog", package: "catalog")] : []),
        swiftSettings: withCatalog ? [.define("MVVM_WITH_CATALOG")] : []),
        .target(name: "AppSample", dependencies: [
            "AppSampleSwift5",
            .product(name: "MVVMExport", package: "libmvvm"),
            .product(name: "MVVMCombine", package: "libmvvm"),
        ]),
        // Swift 5 language mode, as a package keeps code not yet Swift 6 clean.
        .target(name: "AppSampleSwift5", dependencies: [
            .product(name: "MVVMExport", package: "libmvvm"),
            .product(name: "OpenCombine", package: "OpenCombine"),
        ], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "BadSample", dependencies: [
            .product(name: "MVVMExport", package: "libmvvm"),
            .product(name: "MVVMCatalog", package: "catalog"),
            .product(name: "OpenCombine", package: "OpenCombine"),
        ]),
    ]
)
