// swift-tools-version:6.0
// A search screen as a SwiftUI developer writes one (a query binding, an async search against a
// host service, a result list of records, an optional selection, a command that throws), as an
// outside package over libmvvm's export API: libsearch.so, driven by search_view.c.
import PackageDescription

let package = Package(
    name: "search",
    products: [
        .library(name: "search", type: .dynamic, targets: ["Search"]),
    ],
    dependencies: [
        .package(name: "libmvvm", path: "../.."),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        .target(name: "Search", dependencies: [
            .product(name: "MVVMExport", package: "libmvvm"),
            .product(name: "OpenCombine", package: "OpenCombine"),
        ]),
    ]
)
