// swift-tools-version:6.0
// A package outside libmvvm that exports view models of its own, as a user's would: it depends on
// libmvvm by path, registers its classes through the public export API, and builds libsample.so,
// which carries the whole mvvm_* ABI with its classes and the catalog's. No C, Python, Ruby or Lua
// is written for its classes: Tests/outside/run.sh drives them from each through the generic ABI.
import PackageDescription

let package = Package(
    name: "sample",
    products: [
        .library(name: "sample", type: .dynamic, targets: ["Sample"]),
        // A package whose registration breaks every rule: the library refuses to serve.
        .library(name: "badsample", type: .dynamic, targets: ["BadSample"]),
    ],
    dependencies: [
        .package(name: "libmvvm", path: "../.."),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        .target(name: "Sample", dependencies: [
            .product(name: "MVVMExport", package: "libmvvm"),
            .product(name: "MVVMRuntime", package: "libmvvm"),
            .product(name: "OpenCombine", package: "OpenCombine"),
        ]),
        .target(name: "BadSample", dependencies: [
            .product(name: "MVVMExport", package: "libmvvm"),
            .product(name: "OpenCombine", package: "OpenCombine"),
        ]),
    ]
)
