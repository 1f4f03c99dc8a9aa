-- LuaJIT drives libmvvm through its unchanged C ABI.
--
--   luajit examples/lua/mvvm_demo.lua LIBMVVM_SO MVVM_H_PREPROCESSED
--
-- The API is declared with ffi.cdef from include/mvvm.h itself, passed through the C
-- preprocessor (cpp -P -E include/mvvm.h, done by run.sh): not one declaration is written here.
-- The script drives the sign-up view model (its validation flips notified through an ffi.cast
-- callback) and the stop watch view model on a virtual loop, checks every result exactly, and
-- ends with "lua: N passed, N failed"; it exits non-zero when a check failed.

local ffi = require("ffi")

-- A C function called through the FFI from a JIT-compiled trace must not call back into Lua
-- (LuaJIT raises "bad callback"). Several calls below call back (setters, commands, advance),
-- so this demo runs interpreted; a hot path would jit.off() only the functions that call back.
jit.off()

local lib_path, header_path = arg[1], arg[2]
if not lib_path or not header_path then
  io.stderr:write("usage: luajit mvvm_demo.lua LIBMVVM_SO MVVM_H_PREPROCESSED\n")
  os.exit(2)
end

local header = assert(io.open(header_path, "r"))
ffi.cdef(header:read("*a"))
header:close()
local C = ffi.load(lib_path)

-- --- checks -----------------------------------------------------------------------------------

local passed, failed = 0, 0

local function show(value)
  if type(value) == "table" then
    local parts = {}
    for i, v in ipairs(value) do parts[i] = show(v) end
    return "{" .. table.concat(parts, ", ") .. "}"
  elseif type(value) == "string" then
    return string.format("%q", value)
  end
  return tostring(value)
end

local function equal(a, b)
  if type(a) == "table" and type(b) == "table" then
    if #a ~= #b then return false end
    for i = 1, #a do
      if not equal(a[i], b[i]) then return false end
    end
    return true
  end
  return a == b
end

local function check(what, got, expected)
  if equal(got, expected) then
    passed = passed + 1
    print("ok   " .. what .. ": " .. show(got))
  else
    failed = failed + 1
    print("FAIL " .. what .. ": got " .. show(got) .. ", expected " .. show(expected))
  end
end

-- --- calls ------------------------------------------------------------------------------------

-- Calls C.<name>(...) and raises the status name and the library's message on failure.
local function call(name, ...)
  local status = C[name](...)
  if status ~= C.MVVM_OK then
    error(string.format("%s: %s (%s)", name, ffi.string(C.mvvm_last_error()),
                        ffi.string(C.mvvm_status_name(status))), 2)
  end
end

-- The status of a call expected to fail, with the library's message.
local function status_of(name, ...)
  local status = C[name](...)
  return ffi.string(C.mvvm_status_name(status)), ffi.string(C.mvvm_last_error())
end

local function create(name, ...)
  local out = ffi.new("mvvm_handle[1]")
  local args = { ... }
  args[#args + 1] = out
  call(name, unpack(args))
  return out[0]
end

local function get_bool(object, property)
  local out = ffi.new("bool[1]")
  call("mvvm_get_bool", object, property, out)
  return out[0]
end

local function get_string(object, property)
  local out = ffi.new("char *[1]")
  call("mvvm_get_string", object, property, out)
  local value = ffi.string(out[0])
  C.mvvm_string_free(out[0])
  return value
end

local function now(loop)
  local out = ffi.new("int64_t[1]")
  call("mvvm_loop_now_ms", loop, out)
  return tonumber(out[0])
end

-- --- callbacks --------------------------------------------------------------------------------

-- One callback and one destroy function for every subscription: user_data is an integer key
-- into `subscribers`, so nothing C holds is a Lua object the collector could free.
local subscribers, destroyed = {}, 0

local on_event = ffi.cast("mvvm_callback", function(source, event, user_data)
  local subscriber = subscribers[tonumber(ffi.cast("intptr_t", user_data))]
  local value = event.value
  local v
  if value.type == C.MVVM_TYPE_BOOL then
    v = value.boolean
  elseif value.type == C.MVVM_TYPE_INT then
    v = tonumber(value.integer)
  elseif value.type == C.MVVM_TYPE_DOUBLE then
    v = value.number
  elseif value.type == C.MVVM_TYPE_STRING then
    v = ffi.string(value.string)
  end
  subscriber[#subscriber + 1] = { ffi.string(event.name), v }
end)

local on_destroy = ffi.cast("mvvm_destroy_fn", function(user_data)
  subscribers[tonumber(ffi.cast("intptr_t", user_data))] = nil
  destroyed = destroyed + 1
end)

local next_key = 0

-- Subscribes to `name` of `object`; returns the list the events are appended to.
local function subscribe(object, name)
  next_key = next_key + 1
  local events = {}
  subscribers[next_key] = events
  local out = ffi.new("mvvm_handle[1]")
  call("mvvm_subscribe", object, name, on_event, ffi.cast("void *", next_key), on_destroy, out)
  return events, out[0]
end

local function values(events)
  local list = {}
  for i, e in ipairs(events) do list[i] = e[2] end
  return list
end

-- --- the demo ---------------------------------------------------------------------------------

check("library version is 0.MINOR.PATCH", ffi.string(C.mvvm_version()):match("^0%.%d+%.%d+$") ~= nil, true)

local loop = create("mvvm_loop_new", C.MVVM_LOOP_VIRTUAL)

-- Sign-up: validation on every binding, flips notified through the callback.
local FAMILY = "\240\159\145\168\226\128\141\240\159\145\169\226\128\141\240\159\145\167\226\128\141\240\159\145\166"
local sign_up = create("mvvm_sign_up_view_model_new", loop)
local flips = subscribe(sign_up, "is_sign_up_enabled")
local alerts = subscribe(sign_up, "is_completion_alert_presented")

call("mvvm_sign_up_view_model_set_user_id", sign_up, "abcde")
call("mvvm_set_string", sign_up, "password", "12345678")
call("mvvm_set_string", sign_up, "confirm_password", "12345678")
call("mvvm_set_bool", sign_up, "agreed", true)
check("sign-up: 5 characters of id is not enough", get_bool(sign_up, "is_sign_up_enabled"), false)
check("sign-up: no flip yet", #flips, 0)
call("mvvm_sign_up_view_model_set_user_id", sign_up, "abcdef")
check("sign-up: 6 characters enable it", get_bool(sign_up, "is_sign_up_enabled"), true)
check("sign-up: the flip was notified", flips[1] and flips[1][1], "is_sign_up_enabled")
check("sign-up: flips so far", values(flips), { true })

call("mvvm_set_string", sign_up, "password", "1234567")
call("mvvm_set_string", sign_up, "confirm_password", "1234567")
check("sign-up: a 7-character password disables it", values(flips), { true, false })
call("mvvm_set_string", sign_up, "password", "12345678")
check("sign-up: confirmation differs", get_bool(sign_up, "is_sign_up_enabled"), false)
call("mvvm_set_string", sign_up, "confirm_password", "12345678")
check("sign-up: 8 characters, confirmed", values(flips), { true, false, true })

call("mvvm_set_string", sign_up, "user_id", string.rep(FAMILY, 6))
check("sign-up: six families are 6 characters", get_bool(sign_up, "is_sign_up_enabled"), true)
check("sign-up: the id reads back byte for byte", get_string(sign_up, "user_id"), string.rep(FAMILY, 6))
call("mvvm_set_string", sign_up, "user_id", string.rep(FAMILY, 5))
check("sign-up: five families are 5 characters", values(flips), { true, false, true, false })
call("mvvm_set_string", sign_up, "user_id", "abcdef")
call("mvvm_set_bool", sign_up, "agreed", false)
check("sign-up: disagreeing disables it", values(flips), { true, false, true, false, true, false })

call("mvvm_sign_up_view_model_sign_up_tapped", sign_up)
check("sign-up: a tap while disabled does nothing", get_bool(sign_up, "is_completion_alert_presented"), false)
call("mvvm_set_bool", sign_up, "agreed", true)
call("mvvm_send", sign_up, "sign_up_tapped", nil)
check("sign-up: the built-in service presents the alert", values(alerts), { true })

local status, message = status_of("mvvm_set_bool", sign_up, "is_sign_up_enabled", false)
check("sign-up: an output is read-only", status, "MVVM_ERR_READ_ONLY")
check("sign-up: with the library's message", message, "sign_up_view_model.is_sign_up_enabled is read-only")
status = status_of("mvvm_set_string", sign_up, "user_id", "\255")
check("sign-up: bad UTF-8 is refused", status, "MVVM_ERR_INVALID_ARGUMENT")

-- Stop watch: time on the loop's clock, titles by state.
local watch = create("mvvm_stop_watch_view_model_new", loop)
local times = subscribe(watch, "time")
check("stop watch: starts at", get_string(watch, "time"), "00:00:00.00")
check("stop watch: main action", get_string(watch, "main_action_title"), "Start")
call("mvvm_stop_watch_view_model_main_action", watch)
check("stop watch: running", get_string(watch, "main_action_title"), "Stop")
call("mvvm_loop_advance", loop, 1230)
check("stop watch: loop time", now(loop), 1230)
check("stop watch: time after 1230 ms", get_string(watch, "time"), "00:00:01.23")
check("stop watch: one event per 10 ms tick", #times, 123)
check("stop watch: the last event", times[#times] and times[#times][2], "00:00:01.23")
check("stop watch: clear is disabled while running", get_bool(watch, "clear_action_enabled"), false)
call("mvvm_send", watch, "main_action", nil)
check("stop watch: stopped", get_string(watch, "main_action_title"), "Resume")
check("stop watch: clear is enabled", get_bool(watch, "clear_action_enabled"), true)
call("mvvm_loop_advance", loop, 500)
check("stop watch: stopped time stays", get_string(watch, "time"), "00:00:01.23")
call("mvvm_stop_watch_view_model_clear_action", watch)
check("stop watch: cleared", get_string(watch, "time"), "00:00:00.00")
check("stop watch: startable again", get_string(watch, "main_action_title"), "Start")
check("stop watch: events", #times, 124)
status = status_of("mvvm_loop_dispatch", loop, nil)
check("stop watch: a virtual loop does not dispatch", status, "MVVM_ERR_WRONG_LOOP_KIND")

-- Releasing ends the subscriptions: each destroy function runs once.
call("mvvm_release", sign_up)
check("release: the sign-up's two subscriptions ended", destroyed, 2)
call("mvvm_release", loop)
check("release: the loop's release ended the stop watch's", destroyed, 3)
status = status_of("mvvm_get_string", watch, "time", ffi.new("char *[1]"))
check("release: the stop watch's loop is gone", status, "MVVM_ERR_LOOP_RELEASED")
call("mvvm_release", watch)
check("release: no subscriber left", next(subscribers), nil)

on_event:free()
on_destroy:free()

print(string.format("lua: %d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
