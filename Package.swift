// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "libmvvm",
    products: [
        .library(name: "MVVMRuntime", targets: ["MVVMRuntime"]),
        .library(name: "MVVMModels", targets: ["MVVMModels"]),
        .library(name: "MVVMViewModels", targets: ["MVVMViewModels"]),
    ],
    dependencies: [
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        // Swift 6 language mode throughout: OpenCombine predates Sendable, so it is
        // imported with `@preconcurrency`, and the few types that cross threads
        // (loop work items, locks) say why they are `@unchecked Sendable`.
        .target(name: "CMVVMSystem"),
        .target(
            name: "MVVMRuntime",
            dependencies: ["CMVVMSystem", .product(name: "OpenCombine", package: "OpenCombine")]
        ),
        .target(
            name: "MVVMModels",
            dependencies: ["MVVMRuntime", .product(name: "OpenCombine", package: "OpenCombine")]
        ),
        .target(
            name: "MVVMViewModels",
            dependencies: ["MVVMRuntime", "MVVMModels", .product(name: "OpenCombine", package: "OpenCombine")]
        ),
        .executableTarget(
            name: "mvvm-swift-demo",
            dependencies: ["MVVMRuntime", "MVVMModels", "MVVMViewModels",
                           .product(name: "OpenCombine", package: "OpenCombine")],
            path: "examples/swift"
        ),
        .testTarget(
            name: "MVVMCoreTests",
            dependencies: ["MVVMRuntime", "MVVMModels", "MVVMViewModels",
                           .product(name: "OpenCombine", package: "OpenCombine")]
        ),
    ]
)
