// swift-tools-version:6.0
// View models as SwiftUI apps write them (Sources/Expenses), exported twice: by the registration
// `python3 -m mvvm_gen derive` derives from their code (Exports.derived.swift, no hand line), and by
// a careful hand registration (HandExports.swift). Each library product's hook calls one of them;
// Tests/derive/run.sh checks, from C and Python, that both libraries describe the same classes and
// behave the same.
import PackageDescription

let package = Package(
    name: "derive",
    products: [
        .library(name: "derived", type: .dynamic, targets: ["DerivedLibrary"]),
        .library(name: "hand", type: .dynamic, targets: ["HandLibrary"]),
    ],
    dependencies: [
        .package(name: "libmvvm", path: "../.."),
    ],
    targets: [
        .target(name: "Expenses", dependencies: [
            .product(name: "MVVMExport", package: "libmvvm"),
            .product(name: "MVVMFoundation", package: "libmvvm"),
            .product(name: "MVVMCombine", package: "libmvvm"),
        ]),
        .target(name: "DerivedLibrary", dependencies: ["Expenses", .product(name: "MVVMExport", package: "libmvvm")]),
        .target(name: "HandLibrary", dependencies: ["Expenses", .product(name: "MVVMExport", package: "libmvvm")]),
    ]
)
