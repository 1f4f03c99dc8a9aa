// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "libmvvm",
    products: [
        // The export API and the engine behind the C ABI, for a package exporting its own view
        // models: its dynamic library product (of its own target) exports the whole ABI with the
        // classes its hook registers (docs/packages.md). The seeds' catalog is such a package,
        // examples/catalog.
        .library(name: "MVVMExport", targets: ["MVVMExport"]),
        // UUID, Date, URL and Decimal as values, for a package whose view models hold them: a product
        // of its own, so that a library without them does not link Foundation.
        .library(name: "MVVMFoundation", targets: ["MVVMFoundation"]),
        // Loops and schedulers, the loop timer publisher, the operators OpenCombine lacks.
        .library(name: "MVVMRuntime", targets: ["MVVMRuntime"]),
        // The one import for Combine code: `import MVVMCombine` where Apple's code says
        // `import Combine` (OpenCombine, its Foundation and Dispatch schedulers, libmvvm's operators).
        .library(name: "MVVMCombine", targets: ["MVVMCombine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        // Swift 6 language mode throughout: OpenCombine predates Sendable, so it is
        // imported with `@preconcurrency`, and the few types that cross threads
        // (loop work items, locks) say why they are `@unchecked Sendable`.
        // libdispatch: the main queue's hooks for CoreFoundation (main_thread.c).
        .target(name: "CMVVMSystem", linkerSettings: [.linkedLibrary("dispatch")]),
        .target(
            name: "MVVMRuntime",
            dependencies: ["CMVVMSystem", .product(name: "OpenCombine", package: "OpenCombine")]
        ),
        // @Published and ObservableObject that tell the engine directly (no subscription per
        // property): what MVVMCombine offers in place of OpenCombine's.
        .target(
            name: "MVVMPublished",
            dependencies: ["CMVVMSystem", "MVVMRuntime", .product(name: "OpenCombine", package: "OpenCombine")]
        ),
        .target(
            name: "MVVMCombine",
            dependencies: ["MVVMRuntime", "MVVMPublished", .product(name: "OpenCombine", package: "OpenCombine"),
                           .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                           .product(name: "OpenCombineFoundation", package: "OpenCombine")]
        ),
        // The public C header, seen by Swift as a module so the @_cdecl functions use its types.
        .systemLibrary(name: "CMVVM", path: "include"),
        .target(
            name: "MVVMExport",
            dependencies: ["CMVVM", "CMVVMSystem", "MVVMRuntime", "MVVMPublished",
                           .product(name: "OpenCombine", package: "OpenCombine")],
            // exports.map (only mvvm_* leaves a library) is given to the linker by whoever builds a
            // library (the Makefile, the release and packaging scripts), not here: unsafe flags in
            // the manifest would keep a package from depending on this one by version.
            exclude: ["exports.map"]
        ),
        .target(name: "MVVMFoundation", dependencies: ["MVVMExport"]),
        // The engine's own tests: the export API and the C ABI from Swift, on the virtual loop.
        .testTarget(
            name: "MVVMExportTests",
            dependencies: ["MVVMExport", "MVVMRuntime", "MVVMPublished", "CMVVM",
                           .product(name: "OpenCombine", package: "OpenCombine")]
        ),
        // The main loop, on the main thread (XCTest runs its tests there; swift-testing does not).
        .testTarget(name: "MVVMMainLoopTests", dependencies: ["MVVMRuntime", "MVVMExport", "CMVVM",
                                                             .product(name: "OpenCombine", package: "OpenCombine")]),
        .testTarget(name: "MVVMFoundationTests", dependencies: ["MVVMFoundation", "MVVMExport", "CMVVM"]),
        // Code written for Apple's Combine, with `import MVVMCombine` for `import Combine`.
        .testTarget(name: "MVVMCombineTests", dependencies: ["MVVMCombine", "MVVMPublished", "MVVMRuntime",
                                                           .product(name: "OpenCombine", package: "OpenCombine")]),
        // The runtime's own tests: loops, the operators, the list changes.
        .testTarget(
            name: "MVVMCoreTests",
            dependencies: ["MVVMRuntime", .product(name: "OpenCombine", package: "OpenCombine")]
        ),
    ]
)
