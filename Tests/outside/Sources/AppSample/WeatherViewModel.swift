// A weather screen as a Combine + MVVM tutorial writes it: Combine on RunLoop.main (a debounce,
// a receive(on:)) over a property the view binds. Its one change from Apple's code: `import
// MVVMCombine` for `import Combine`.
import Foundation
import MVVMCombine

@MainActor
public final class WeatherViewModel: ObservableObject {
    @Published public var city = ""
    /// Follows `city` once it has been still for 30 ms.
    @Published public private(set) var currentWeather = ""
    /// `city`, received on the main run loop.
    @Published public private(set) var echo = ""
    private var cancellables: Set<AnyCancellable> = []

    public init() {
        $city.dropFirst()
            .debounce(for: .milliseconds(30), scheduler: RunLoop.main)
            .sink { [weak self] city in self?.currentWeather = "sunny in \(city)" }
            .store(in: &cancellables)
        $city.dropFirst()
            .receive(on: RunLoop.main)
            .sink { [weak self] city in self?.echo = city }
            .store(in: &cancellables)
    }
}
