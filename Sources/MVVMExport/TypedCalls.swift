// The catalog's typed calls: each a thin wrapper over the generic call of the same meaning,
// checking the handle's class first.
import CMVVM

func typedCommand(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ name: String,
                  _ argument: () throws(ExportError) -> Value = { .none }) -> mvvm_status {
    exporting { () throws(ExportError) in
        let argument = try argument()
        try withObject(handle, of: exportedClass) { object throws(ExportError) in
            try run(exportedClass.command(name), on: object, argument)
        }
    }
}

func typedGet<T>(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ name: String, _ type: ValueType,
                 _ out: UnsafeMutablePointer<T>?, _ convert: (Value) -> T?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        let value = try withObject(handle, of: exportedClass, reading: true) { object throws(ExportError) in
            try get(exportedClass.property(name), of: object, as: type)
        }
        if let converted = convert(value) { write(converted, to: out) }
    }
}

func typedSet(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ name: String,
              _ value: () throws(ExportError) -> Value) -> mvvm_status {
    exporting { () throws(ExportError) in
        let value = try value()
        try withObject(handle, of: exportedClass) { object throws(ExportError) in
            try set(exportedClass.property(name), of: object, to: value)
        }
    }
}

func typedChild(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ name: String,
                _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withObject(handle, of: exportedClass) { make(exportedClass.child(name), of: $0) }, to: out)
    }
}

func asBool(_ value: Value) -> Bool? { if case let .bool(flag) = value { return flag } else { return nil } }
func asInt(_ value: Value) -> Int64? { if case let .int(number) = value { return number } else { return nil } }
func asString(_ value: Value) -> UnsafeMutablePointer<CChar>?? {
    if case let .string(text) = value { return .some(CString.copy(text)) } else { return nil }
}

// MARK: count_down_timer
@_cdecl("mvvm_count_down_timer_start")
public func mvvm_count_down_timer_start(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.countDownTimer, "start")
}
@_cdecl("mvvm_count_down_timer_pause")
public func mvvm_count_down_timer_pause(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.countDownTimer, "pause")
}
@_cdecl("mvvm_count_down_timer_stop")
public func mvvm_count_down_timer_stop(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.countDownTimer, "stop")
}
@_cdecl("mvvm_count_down_timer_reset")
public func mvvm_count_down_timer_reset(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.countDownTimer, "reset")
}
@_cdecl("mvvm_count_down_timer_get_full_count")
public func mvvm_count_down_timer_get_full_count(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    typedGet(handle, Catalog.countDownTimer, "full_count", .int, out, asInt)
}
@_cdecl("mvvm_count_down_timer_get_count")
public func mvvm_count_down_timer_get_count(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    typedGet(handle, Catalog.countDownTimer, "count", .int, out, asInt)
}
@_cdecl("mvvm_count_down_timer_get_remaining_time")
public func mvvm_count_down_timer_get_remaining_time(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    typedGet(handle, Catalog.countDownTimer, "remaining_time", .int, out, asInt)
}
@_cdecl("mvvm_count_down_timer_get_is_doing")
public func mvvm_count_down_timer_get_is_doing(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Bool>?) -> mvvm_status {
    typedGet(handle, Catalog.countDownTimer, "is_doing", .bool, out, asBool)
}

// MARK: timer_view_model
@_cdecl("mvvm_timer_view_model_get_is_show_alert")
public func mvvm_timer_view_model_get_is_show_alert(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Bool>?) -> mvvm_status {
    typedGet(handle, Catalog.timerViewModel, "is_show_alert", .bool, out, asBool)
}
@_cdecl("mvvm_timer_view_model_set_is_show_alert")
public func mvvm_timer_view_model_set_is_show_alert(_ handle: mvvm_handle, _ value: Bool) -> mvvm_status {
    typedSet(handle, Catalog.timerViewModel, "is_show_alert") { .bool(value) }
}
@_cdecl("mvvm_timer_view_model_display")
public func mvvm_timer_view_model_display(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    typedChild(handle, Catalog.timerViewModel, "display", out)
}
@_cdecl("mvvm_timer_view_model_player")
public func mvvm_timer_view_model_player(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    typedChild(handle, Catalog.timerViewModel, "player", out)
}

// MARK: display_view_model
@_cdecl("mvvm_display_view_model_get_remaining_time")
public func mvvm_display_view_model_get_remaining_time(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    typedGet(handle, Catalog.displayViewModel, "remaining_time", .int, out, asInt)
}

// MARK: player_view_model
@_cdecl("mvvm_player_view_model_tapped")
public func mvvm_player_view_model_tapped(_ handle: mvvm_handle, _ argument: UnsafePointer<CChar>?) -> mvvm_status {
    typedCommand(handle, Catalog.playerViewModel, "tapped") { () throws(ExportError) in .string(try CString.read(argument, "argument")) }
}
@_cdecl("mvvm_player_view_model_get_is_stop_enabled")
public func mvvm_player_view_model_get_is_stop_enabled(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Bool>?) -> mvvm_status {
    typedGet(handle, Catalog.playerViewModel, "is_stop_enabled", .bool, out, asBool)
}
@_cdecl("mvvm_player_view_model_get_is_play_timer")
public func mvvm_player_view_model_get_is_play_timer(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Bool>?) -> mvvm_status {
    typedGet(handle, Catalog.playerViewModel, "is_play_timer", .bool, out, asBool)
}

// MARK: stop_watch
@_cdecl("mvvm_stop_watch_start")
public func mvvm_stop_watch_start(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.stopWatch, "start")
}
@_cdecl("mvvm_stop_watch_stop")
public func mvvm_stop_watch_stop(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.stopWatch, "stop")
}
@_cdecl("mvvm_stop_watch_resume")
public func mvvm_stop_watch_resume(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.stopWatch, "resume")
}
@_cdecl("mvvm_stop_watch_clear")
public func mvvm_stop_watch_clear(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.stopWatch, "clear")
}
@_cdecl("mvvm_stop_watch_get_time_ms")
public func mvvm_stop_watch_get_time_ms(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    typedGet(handle, Catalog.stopWatch, "time_ms", .int, out, asInt)
}
@_cdecl("mvvm_stop_watch_get_state")
public func mvvm_stop_watch_get_state(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.stopWatch, "state", .string, out, asString)
}

// MARK: stop_watch_view_model
@_cdecl("mvvm_stop_watch_view_model_main_action")
public func mvvm_stop_watch_view_model_main_action(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.stopWatchViewModel, "main_action")
}
@_cdecl("mvvm_stop_watch_view_model_clear_action")
public func mvvm_stop_watch_view_model_clear_action(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.stopWatchViewModel, "clear_action")
}
@_cdecl("mvvm_stop_watch_view_model_get_time")
public func mvvm_stop_watch_view_model_get_time(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.stopWatchViewModel, "time", .string, out, asString)
}
@_cdecl("mvvm_stop_watch_view_model_get_main_action_title")
public func mvvm_stop_watch_view_model_get_main_action_title(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.stopWatchViewModel, "main_action_title", .string, out, asString)
}
@_cdecl("mvvm_stop_watch_view_model_get_clear_action_title")
public func mvvm_stop_watch_view_model_get_clear_action_title(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.stopWatchViewModel, "clear_action_title", .string, out, asString)
}
@_cdecl("mvvm_stop_watch_view_model_get_main_action_enabled")
public func mvvm_stop_watch_view_model_get_main_action_enabled(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Bool>?) -> mvvm_status {
    typedGet(handle, Catalog.stopWatchViewModel, "main_action_enabled", .bool, out, asBool)
}
@_cdecl("mvvm_stop_watch_view_model_get_clear_action_enabled")
public func mvvm_stop_watch_view_model_get_clear_action_enabled(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Bool>?) -> mvvm_status {
    typedGet(handle, Catalog.stopWatchViewModel, "clear_action_enabled", .bool, out, asBool)
}

// MARK: input_echo_view_model
@_cdecl("mvvm_input_echo_view_model_get_input")
public func mvvm_input_echo_view_model_get_input(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.inputEchoViewModel, "input", .string, out, asString)
}
@_cdecl("mvvm_input_echo_view_model_set_input")
public func mvvm_input_echo_view_model_set_input(_ handle: mvvm_handle, _ value: UnsafePointer<CChar>?) -> mvvm_status {
    typedSet(handle, Catalog.inputEchoViewModel, "input") { () throws(ExportError) in .string(try CString.read(value, "value")) }
}
@_cdecl("mvvm_input_echo_view_model_get_label")
public func mvvm_input_echo_view_model_get_label(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.inputEchoViewModel, "label", .string, out, asString)
}
@_cdecl("mvvm_input_echo_view_model_get_message")
public func mvvm_input_echo_view_model_get_message(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.inputEchoViewModel, "message", .string, out, asString)
}

// MARK: sign_up_view_model
@_cdecl("mvvm_sign_up_view_model_sign_up_tapped")
public func mvvm_sign_up_view_model_sign_up_tapped(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.signUpViewModel, "sign_up_tapped")
}
@_cdecl("mvvm_sign_up_view_model_get_user_id")
public func mvvm_sign_up_view_model_get_user_id(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.signUpViewModel, "user_id", .string, out, asString)
}
@_cdecl("mvvm_sign_up_view_model_set_user_id")
public func mvvm_sign_up_view_model_set_user_id(_ handle: mvvm_handle, _ value: UnsafePointer<CChar>?) -> mvvm_status {
    typedSet(handle, Catalog.signUpViewModel, "user_id") { () throws(ExportError) in .string(try CString.read(value, "value")) }
}
@_cdecl("mvvm_sign_up_view_model_get_password")
public func mvvm_sign_up_view_model_get_password(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.signUpViewModel, "password", .string, out, asString)
}
@_cdecl("mvvm_sign_up_view_model_set_password")
public func mvvm_sign_up_view_model_set_password(_ handle: mvvm_handle, _ value: UnsafePointer<CChar>?) -> mvvm_status {
    typedSet(handle, Catalog.signUpViewModel, "password") { () throws(ExportError) in .string(try CString.read(value, "value")) }
}
@_cdecl("mvvm_sign_up_view_model_get_confirm_password")
public func mvvm_sign_up_view_model_get_confirm_password(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.signUpViewModel, "confirm_password", .string, out, asString)
}
@_cdecl("mvvm_sign_up_view_model_set_confirm_password")
public func mvvm_sign_up_view_model_set_confirm_password(_ handle: mvvm_handle, _ value: UnsafePointer<CChar>?) -> mvvm_status {
    typedSet(handle, Catalog.signUpViewModel, "confirm_password") { () throws(ExportError) in .string(try CString.read(value, "value")) }
}
@_cdecl("mvvm_sign_up_view_model_get_agreed")
public func mvvm_sign_up_view_model_get_agreed(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Bool>?) -> mvvm_status {
    typedGet(handle, Catalog.signUpViewModel, "agreed", .bool, out, asBool)
}
@_cdecl("mvvm_sign_up_view_model_set_agreed")
public func mvvm_sign_up_view_model_set_agreed(_ handle: mvvm_handle, _ value: Bool) -> mvvm_status {
    typedSet(handle, Catalog.signUpViewModel, "agreed") { .bool(value) }
}
@_cdecl("mvvm_sign_up_view_model_get_is_completion_alert_presented")
public func mvvm_sign_up_view_model_get_is_completion_alert_presented(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Bool>?) -> mvvm_status {
    typedGet(handle, Catalog.signUpViewModel, "is_completion_alert_presented", .bool, out, asBool)
}
@_cdecl("mvvm_sign_up_view_model_set_is_completion_alert_presented")
public func mvvm_sign_up_view_model_set_is_completion_alert_presented(_ handle: mvvm_handle, _ value: Bool) -> mvvm_status {
    typedSet(handle, Catalog.signUpViewModel, "is_completion_alert_presented") { .bool(value) }
}
@_cdecl("mvvm_sign_up_view_model_get_is_sign_up_enabled")
public func mvvm_sign_up_view_model_get_is_sign_up_enabled(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Bool>?) -> mvvm_status {
    typedGet(handle, Catalog.signUpViewModel, "is_sign_up_enabled", .bool, out, asBool)
}

// MARK: welcome_view_model
@_cdecl("mvvm_welcome_view_model_view_did_load")
public func mvvm_welcome_view_model_view_did_load(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.welcomeViewModel, "view_did_load")
}
@_cdecl("mvvm_welcome_view_model_tap_button")
public func mvvm_welcome_view_model_tap_button(_ handle: mvvm_handle, _ argument: UnsafePointer<CChar>?) -> mvvm_status {
    typedCommand(handle, Catalog.welcomeViewModel, "tap_button") { () throws(ExportError) in .string(try CString.read(argument, "argument")) }
}

// MARK: counter
@_cdecl("mvvm_counter_increment")
public func mvvm_counter_increment(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.counter, "increment")
}
@_cdecl("mvvm_counter_decrement")
public func mvvm_counter_decrement(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.counter, "decrement")
}
@_cdecl("mvvm_counter_get_count")
public func mvvm_counter_get_count(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    typedGet(handle, Catalog.counter, "count", .int, out, asInt)
}

// MARK: random_counter
@_cdecl("mvvm_random_counter_increment")
public func mvvm_random_counter_increment(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.randomCounter, "increment")
}
@_cdecl("mvvm_random_counter_decrement")
public func mvvm_random_counter_decrement(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.randomCounter, "decrement")
}
@_cdecl("mvvm_random_counter_get_count")
public func mvvm_random_counter_get_count(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    typedGet(handle, Catalog.randomCounter, "count", .int, out, asInt)
}

// MARK: counter_view_model
@_cdecl("mvvm_counter_view_model_increment")
public func mvvm_counter_view_model_increment(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.counterViewModel, "increment")
}
@_cdecl("mvvm_counter_view_model_decrement")
public func mvvm_counter_view_model_decrement(_ handle: mvvm_handle) -> mvvm_status {
    typedCommand(handle, Catalog.counterViewModel, "decrement")
}
@_cdecl("mvvm_counter_view_model_get_label")
public func mvvm_counter_view_model_get_label(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.counterViewModel, "label", .string, out, asString)
}
@_cdecl("mvvm_counter_view_model_get_count")
public func mvvm_counter_view_model_get_count(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.counterViewModel, "count", .string, out, asString)
}

// MARK: counter_page_view_model
@_cdecl("mvvm_counter_page_view_model_get_read_me")
public func mvvm_counter_page_view_model_get_read_me(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    typedGet(handle, Catalog.counterPageViewModel, "read_me", .string, out, asString)
}
@_cdecl("mvvm_counter_page_view_model_first_counter")
public func mvvm_counter_page_view_model_first_counter(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    typedChild(handle, Catalog.counterPageViewModel, "first_counter", out)
}
@_cdecl("mvvm_counter_page_view_model_second_counter")
public func mvvm_counter_page_view_model_second_counter(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    typedChild(handle, Catalog.counterPageViewModel, "second_counter", out)
}
