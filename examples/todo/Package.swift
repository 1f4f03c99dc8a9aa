// swift-tools-version:6.0
// The todo app (DESIGN.md "The todo app", after TodoMVC's app spec): an outside user of libmvvm's
// export API, depending on it by path as any user's package would. Models (TodoModels: Todo,
// TodoStore and its JSON file) apart from view models (TodoViewModels: ObservableObjects with
// @Published properties), and one registration (TodoExport). Its dynamic library, libtodo.so,
// carries the whole mvvm_* ABI with its classes and the catalog's; `make todo` copies it to
// build/todo/libtodo.so.
import PackageDescription

let package = Package(
    name: "todo",
    products: [
        .library(name: "todo", type: .dynamic, targets: ["TodoExport"]),
    ],
    dependencies: [
        .package(name: "libmvvm", path: "../.."),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        .target(name: "TodoModels"),
        .target(name: "TodoViewModels", dependencies: [
            "TodoModels",
            .product(name: "OpenCombine", package: "OpenCombine"),
        ]),
        .target(name: "TodoExport", dependencies: [
            "TodoModels", "TodoViewModels",
            .product(name: "MVVMExport", package: "libmvvm"),
            .product(name: "MVVMRuntime", package: "libmvvm"),
        ]),
    ]
)
