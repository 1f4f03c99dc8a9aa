// The Swift-native side of the benchmarks: the same SignUp flip as bench_c's round trip, driven
// from Swift without the C layer, so their ratio is the cost of the C ABI.
// Prints "<case> <ns per op> <deliveries>" per repetition, as bench_c does.
import MVVMCombine
import Glibc
import MVVMViewModels

func nanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

let arguments = CommandLine.arguments
let repetitions = arguments.count > 1 ? Int(arguments[1])! : 7
let count = arguments.count > 2 ? Int(arguments[2])! : 20_000

// Repetition -1 warms up (the runtime's metadata caches, page faults), a tenth as long, unreported.
for repetition in -1..<repetitions {
    let warmingUp = repetition < 0
    let count = warmingUp ? count / 10 : count
    let form = SignUpViewModel()
    form.binding.userID = "newuser"
    form.binding.confirmPassword = "password1"
    form.binding.agreed = true
    var deliveries = 0
    var lastEnabled = false
    // Every flip of the password is a real change of isSignUpEnabled: count each one received.
    let watching = form.output.$isSignUpEnabled.dropFirst().sink { enabled in
        lastEnabled = enabled
        deliveries += 1
    }
    let start = nanoseconds()
    for index in 0..<count {
        form.binding.password = index & 1 == 1 ? "short" : "password1"
    }
    let elapsed = nanoseconds() - start
    precondition(deliveries == count && !lastEnabled, "lost deliveries")
    if !warmingUp { print("swift_round_trip_sign_up \(Double(elapsed) / Double(count)) \(deliveries)") }
    watching.cancel()
}
