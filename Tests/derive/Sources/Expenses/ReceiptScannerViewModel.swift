// Reading a receipt: the app's own (internal) view model and value.
import Foundation
import MVVMCombine           // where Apple's code says `import Combine`

/// What a receipt said.
struct ScanResult: Equatable {
    var merchant: String
    var total: Decimal
    var lines: Int
}

/// Reads a receipt's text into a result.
final class ReceiptScannerViewModel: ObservableObject {
    /// How far the last scan got, from 0 to 1.
    @Published private(set) var progress = 0.0
    /// What the last scan found.
    @Published private(set) var result: ScanResult?

    /// Scans `text`, a merchant on the first line and a total on the last; gives how many lines it read.
    func scan(_ text: String) -> Int {
        let lines = text.split(separator: "\n").map(String.init)
        progress = 1
        result = ScanResult(merchant: lines.first ?? "", total: Decimal(string: lines.last ?? "") ?? 0, lines: lines.count)
        return lines.count
    }
}
