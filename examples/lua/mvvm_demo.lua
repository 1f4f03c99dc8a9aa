-- LuaJIT drives libmvvm through its unchanged C ABI, with the binding bindings/lua/mvvm.lua.
--
--   luajit examples/lua/mvvm_demo.lua LIBRARY_SO MVVM_H_PREPROCESSED [OTHER_LIBRARY_SO]
--
-- The API is declared with ffi.cdef from include/mvvm.h itself, passed through the C
-- preprocessor (cpp -P -E include/mvvm.h, done by bindings/lua/declare.sh): not one declaration is written here
-- or in mvvm.lua. Nor is any class: mvvm.load reads every class the library exports from
-- mvvm_classes into a namespace, each class making objects through mvvm_new_named, whose
-- properties read and (bindings only) write as fields and whose commands are methods, all
-- through the generic calls. With it the script drives, when the library carries the catalog
-- (libcatalog.so), the sign-up view model (its validation flips notified through an ffi.cast
-- callback) and the stop watch view model on a virtual loop, and, when the library has them
-- (Tests/outside's libsample.so, which does not carry the catalog), the greeter (an
-- ObservableObject) and the tally (an @Observable class) of a package outside libmvvm, its
-- profile and wishlist (optionals, arrays, records, bytes; commands with named arguments,
-- results and errors; async commands, ended, failed, cancelled and released on a virtual loop) and its dialog (members named like the bindings' own functions). Given a
-- second library, it loads both side by side. It checks every result exactly and ends with
-- "lua: N passed, N failed"; it exits non-zero when a check failed.

local here = arg[0]:match("^(.*)/[^/]*$") or "."
-- The binding, bindings/lua/mvvm.lua.
package.path = here .. "/../../bindings/lua/?.lua;" .. package.path
local ffi = require("ffi")
local mvvm = require("mvvm")

local lib_path, header_path, other_path = arg[1], arg[2], arg[3]
if not lib_path or not header_path then
  io.stderr:write("usage: luajit mvvm_demo.lua LIBRARY_SO MVVM_H_PREPROCESSED [OTHER_LIBRARY_SO]\n")
  os.exit(2)
end

mvvm.declare(header_path)
local lib = mvvm.load(lib_path)
local C = lib.C
local classes = lib.classes

-- --- checks -----------------------------------------------------------------------------------

local passed, failed = 0, 0

local function show(value)
  if type(value) == "table" and value ~= mvvm.null then
    local parts, keys = {}, {}
    for i = 1, table.maxn(value) do parts[i] = show(value[i]) end
    for k in pairs(value) do
      if type(k) ~= "number" then keys[#keys + 1] = k end
    end
    table.sort(keys)
    for _, k in ipairs(keys) do parts[#parts + 1] = k .. " = " .. show(value[k]) end
    return "{" .. table.concat(parts, ", ") .. "}"
  elseif type(value) == "string" then
    return string.format("%q", value)
  end
  return tostring(value)
end

local function equal(a, b)
  if type(a) == "table" and type(b) == "table" then
    for k, v in pairs(a) do
      if not equal(v, b[k]) then return false end
    end
    for k in pairs(b) do
      if a[k] == nil then return false end
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

-- The status and message of a failing Lua function (the error mvvm raises).
local function refused(fn, ...)
  local ok, e = pcall(fn, ...)
  if ok then return "no error", "" end
  if type(e) == "table" then return e.status, e.message end
  return "error", tostring(e)
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

-- Subscribes to `name` of `object` (nil: everything); returns the list the events are appended
-- to, each {name, value, probe()}: probe(), when given, says what the getters read inside the
-- callback.
local function subscribe(object, name, probe)
  local events = {}
  mvvm.subscribe(object, name, function(event_name, value)
    events[#events + 1] = { event_name, value, probe and probe() }
  end)
  return events
end

local function values(events)
  local list = {}
  for i, e in ipairs(events) do list[i] = e[2] end
  return list
end

-- The status of setting `key` of `object` through the typed setter, with the library's message.
local function set_status(object, kind, key, v)
  return status_of("mvvm_set_" .. kind, mvvm.handle(object), key, v)
end

-- --- the demo ---------------------------------------------------------------------------------

check("library version is 0.MINOR.PATCH", ffi.string(C.mvvm_version()):match("^0%.%d+%.%d+$") ~= nil, true)
-- No default library: a library is loaded by its path, and only so.
local loaded_without_path, why = pcall(mvvm.load)
check("loading: no default library, a path is needed",
      { loaded_without_path, tostring(why):match("mvvm%.load: give the path of a library") ~= nil }, { false, true })

local loop = lib:loop("virtual")
local status, message, watch

-- The description as this binding reads it (mvvm.json_decode), against its schema,
-- docs/description.schema.json (bindings/lua/schema_check.lua), as the Python suite checks Python's.
do
  local schema_check = require("schema_check")
  local file = assert(io.open(here .. "/../../docs/description.schema.json"))
  local checker = schema_check.new(mvvm.json_decode(file:read("*a")), mvvm.json_null)
  file:close()
  local out = ffi.new("char *[1]")
  check("description: mvvm_classes answers", ffi.string(C.mvvm_status_name(C.mvvm_classes(out))), "MVVM_OK")
  local described = mvvm.json_decode(ffi.string(out[0]))
  C.mvvm_string_free(out[0])
  check("description: the classes, as this binding reads them, follow docs/description.schema.json",
        checker.errors(described), {})
  local broken = {}
  for key, value in pairs(described[1]) do
    if key ~= "display" then broken[key] = value end
  end
  check("description: the schema check refuses a class without its display name", #checker.errors({ broken }) > 0, true)
  if classes.counter then
    local counter = classes.counter.new(loop)
    local object = mvvm.describe(counter)
    check("description: an object's, with the constructor that made it, follows the schema",
          { checker.errors(object), object.constructor }, { {}, "new" })
    mvvm.close(counter)
  end
end

-- The catalog, in a library that carries it (libcatalog.so).
if classes.sign_up_view_model then
check("classes: the catalog's are described",
      { classes.sign_up_view_model ~= nil, classes.stop_watch_view_model ~= nil, classes.counter_page_view_model ~= nil },
      { true, true, true })
check("classes: a class says its Swift name and doc",
      { classes.sign_up_view_model.swift_name, classes.counter.doc }, { "SignUpViewModel", "A counter." })
check("classes: properties with type and access",
      { classes.sign_up_view_model.properties.user_id.access, classes.sign_up_view_model.properties.is_sign_up_enabled.access,
        classes.stop_watch.properties.time_ms.type }, { "rw", "ro", "int" })
check("classes: children with their classes", classes.timer_view_model.children.player, "player_view_model")

-- Sign-up: validation on every binding, flips notified through the callback.
local FAMILY = "\240\159\145\168\226\128\141\240\159\145\169\226\128\141\240\159\145\167\226\128\141\240\159\145\166"
local sign_up = classes.sign_up_view_model.new(loop)
local flips = subscribe(sign_up, "is_sign_up_enabled")
local alerts = subscribe(sign_up, "is_completion_alert_presented")

sign_up.user_id = "abcde"
call("mvvm_set_string", mvvm.handle(sign_up), "password", "12345678")
call("mvvm_set_string", mvvm.handle(sign_up), "confirm_password", "12345678")
call("mvvm_set_bool", mvvm.handle(sign_up), "agreed", true)
check("sign-up: 5 characters of id is not enough", sign_up.is_sign_up_enabled, false)
check("sign-up: no flip yet", #flips, 0)
sign_up.user_id = "abcdef"
check("sign-up: 6 characters enable it", sign_up.is_sign_up_enabled, true)
check("sign-up: the flip was notified", flips[1] and flips[1][1], "is_sign_up_enabled")
check("sign-up: flips so far", values(flips), { true })

sign_up.password = "1234567"
sign_up.confirm_password = "1234567"
check("sign-up: a 7-character password disables it", values(flips), { true, false })
sign_up.password = "12345678"
check("sign-up: confirmation differs", sign_up.is_sign_up_enabled, false)
sign_up.confirm_password = "12345678"
check("sign-up: 8 characters, confirmed", values(flips), { true, false, true })

sign_up.user_id = string.rep(FAMILY, 6)
check("sign-up: six families are 6 characters", sign_up.is_sign_up_enabled, true)
check("sign-up: the id reads back byte for byte", get_string(mvvm.handle(sign_up), "user_id"), string.rep(FAMILY, 6))
sign_up.user_id = string.rep(FAMILY, 5)
check("sign-up: five families are 5 characters", values(flips), { true, false, true, false })
sign_up.user_id = "abcdef"
sign_up.agreed = false
check("sign-up: disagreeing disables it", values(flips), { true, false, true, false, true, false })

sign_up:sign_up_tapped()
check("sign-up: a tap while disabled does nothing", sign_up.is_completion_alert_presented, false)
sign_up.agreed = true
call("mvvm_send", mvvm.handle(sign_up), "sign_up_tapped", nil)
check("sign-up: the built-in service presents the alert", values(alerts), { true })

status, message = set_status(sign_up, "bool", "is_sign_up_enabled", false)
check("sign-up: an output is read-only", status, "MVVM_ERR_READ_ONLY")
check("sign-up: with the library's message", message, "sign_up_view_model.is_sign_up_enabled is read-only")
status = set_status(sign_up, "string", "user_id", "\255")
check("sign-up: bad UTF-8 is refused", status, "MVVM_ERR_INVALID_ARGUMENT")

-- Stop watch: time on the loop's clock, titles by state.
watch = classes.stop_watch_view_model.new(loop)
local times = subscribe(watch, "time")
check("stop watch: starts at", watch.time, "00:00:00.00")
check("stop watch: main action", watch.main_action_title, "Start")
watch:main_action()
check("stop watch: running", watch.main_action_title, "Stop")
loop:advance(1230)
check("stop watch: loop time", loop:now(), 1230)
check("stop watch: time after 1230 ms", watch.time, "00:00:01.23")
check("stop watch: one event per 10 ms tick", #times, 123)
check("stop watch: the last event", times[#times] and times[#times][2], "00:00:01.23")
check("stop watch: clear is disabled while running", get_bool(mvvm.handle(watch), "clear_action_enabled"), false)
call("mvvm_send", mvvm.handle(watch), "main_action", nil)
check("stop watch: stopped", watch.main_action_title, "Resume")
check("stop watch: clear is enabled", watch.clear_action_enabled, true)
loop:advance(500)
check("stop watch: stopped time stays", watch.time, "00:00:01.23")
watch:clear_action()
check("stop watch: cleared", watch.time, "00:00:00.00")
check("stop watch: startable again", watch.main_action_title, "Start")
check("stop watch: events", #times, 124)
status = status_of("mvvm_loop_dispatch", mvvm.handle(loop), nil)
check("stop watch: a virtual loop does not dispatch", status, "MVVM_ERR_WRONG_LOOP_KIND")

-- A constructor over a model, and children, through the same class table.
local timer = classes.count_down_timer.new(loop, 3)
local timer_screen = classes.timer_view_model.new(loop, timer)
local display = timer_screen.display
check("timer: a view model over a model, its child", { mvvm.class_of(display).name, display.remaining_time },
      { "display_view_model", 3 })
check("timer: the library counts a constructor's arguments", { refused(classes.count_down_timer.new, loop) },
      { "MVVM_ERR_INVALID_ARGUMENT", "count_down_timer takes (full_count: int), not 0 arguments" })
check("timer: a constructor's arguments by name", classes.count_down_timer.new(loop, { full_count = 4 }).full_count, 4)
local player = timer_screen.player
check("timer: a command's argument is checked by the library", { refused(player.tapped, player, "jump") },
      { "MVVM_ERR_INVALID_ARGUMENT", 'argument 1 of player_view_model.tapped (argument) cannot hold "jump": it is no case of Action: start, pause, stop' })
mvvm.close(display)
mvvm.close(player)
mvvm.close(timer_screen)
mvvm.close(timer)

-- Releasing ends the subscriptions: each destroy function runs once.
mvvm.close(sign_up)
check("release: the sign-up's two subscriptions ended", mvvm.destroyed, 2)
else
  print("(no catalog in this library: run it with libcatalog.so for it)")
end

-- The classes of a package outside libmvvm (Tests/outside's libsample.so): the same table, with
-- no Lua written for them.
if classes.greeter and classes.tally then
  local destroyed_before = mvvm.destroyed
  local greeter = classes.greeter.new(loop)
  check("greeter: made by new()", { greeter.name, greeter.greeting, greeter.greet_count }, { "", "Hello!", 0 })
  local named = classes.greeter.new(loop, "Ann")
  check("greeter: made by new_with_name(name)", named.greeting, "Hello, Ann!")
  local events = subscribe(greeter, nil, function() return greeter.greeting end)
  greeter.name = "Bob"
  check("greeter: notified after the change; getters read the new value",
        events, { { "name", "Bob", "Hello, Bob!" }, { "greeting", "Hello, Bob!", "Hello, Bob!" } })
  greeter.name = "Bob"
  check("greeter: a set that changes nothing notifies nothing", #events, 2)
  greeter:greet()
  check("greeter: greet counts, then signals the greeting", { events[3], events[4] },
        { { "greet_count", 1, "Hello, Bob!" }, { "greeted", "Hello, Bob!", "Hello, Bob!" } })
  greeter:greet()
  check("greeter: each signal is delivered", { #events, events[6] and events[6][2] }, { 6, "Hello, Bob!" })
  status, message = set_status(greeter, "string", "greeting", "Hi")
  check("greeter: an output is read-only", { status, message }, { "MVVM_ERR_READ_ONLY", "greeter.greeting is read-only" })
  check("greeter: the doc of its class", classes.greeter.doc, "Greets whoever the view names.")

  local tally = classes.tally.new(loop, 3)
  check("tally: made by new(start)", { tally.total, tally.step, tally.title, tally.is_even }, { 3, 1, "Tally", false })
  local changes = subscribe(tally, nil, function() return { tally.total, tally.is_even } end)
  tally:add()
  check("tally: add notifies total, then is_even, after the change",
        changes, { { "total", 4, { 4, true } }, { "is_even", true, { 4, true } } })
  tally.step = 2
  tally.step = 2
  check("tally: a set that changes nothing notifies nothing", { #changes, changes[3][1], changes[3][2] }, { 3, "step", 2 })
  tally:add_many(5)
  check("tally: add_many(5) notifies total once, with the final value", { #changes, changes[4] },
        { 4, { "total", 14, { 14, true } } })
  tally:add_many(0)
  check("tally: add_many(0) changes nothing", #changes, 4)
  tally:add_many(1)
  tally.step = 1
  tally:add()
  check("tally: is_even follows total", { tally.total, tally.is_even, changes[#changes] }, { 17, false, { "is_even", false, { 17, false } } })
  tally:reset()
  check("tally: reset", { tally.total, tally.is_even }, { 0, true })
  status = set_status(tally, "int", "total", 5)
  check("tally: total is read-only", status, "MVVM_ERR_READ_ONLY")
  status = status_of("mvvm_send", mvvm.handle(tally), "add_many", nil)
  check("tally: add_many needs its argument", status, "MVVM_ERR_TYPE_MISMATCH")
  check("tally: add_many(\"2\") is refused by the library", { refused(tally.add_many, tally, "2") },
        { "MVVM_ERR_TYPE_MISMATCH", "argument 1 of tally.add_many (argument) is of type int, not bytes" })
  for _, object in ipairs({ greeter, named, tally }) do mvvm.close(object) end
  check("release: the greeter's and the tally's subscriptions ended", mvvm.destroyed - destroyed_before, 2)
else
  print("(no greeter or tally in this library: run it with Tests/outside/.build/debug/libsample.so for them)")
end

if classes.profile and classes.wishlist and classes.dialog then
  local subscriptions_before = mvvm.subscriptions()  -- the stop watch's, with the catalog
  -- Profile (an ObservableObject): optionals, arrays, records and bytes, read, set and notified.
  local profile = lib.Profile.new(loop)
  check("profile: values read", { profile.first, profile.limit, profile.tags, profile.scores, profile.address, profile.avatar, profile.saves },
        { "", nil, {}, {}, nil, "", 0 })
  local changes = subscribe(profile, nil)
  profile.limit = 5
  profile.limit = nil
  profile.tags = { "swift", "lua" }
  profile.scores = { 1, 2.5 }
  profile.address = { street = "1 Main St", city = "London" }
  profile.avatar = "\137PNG\0\255"
  check("profile: each set notified once, with its value", changes,
        { { "limit", 5 }, { "limit", nil }, { "tags", { "swift", "lua" } }, { "scores", { 1, 2.5 } },
          { "address", { street = "1 Main St", city = "London" } }, { "avatar", "\137PNG\0\255" } })
  check("profile: read back", { profile.limit, profile.tags, profile.address.city, profile.address.zip_code, #profile.avatar },
        { nil, { "swift", "lua" }, "London", nil, 6 })
  check("profile: an optional's nil is refused for a plain property", { refused(function() profile.first = nil end) },
        { "MVVM_ERR_INVALID_ARGUMENT", "profile.first is of type string, not optional: it cannot be null" })
  check("profile: a record's missing field is named", { refused(function() profile.address = { street = "x" } end) },
        { "MVVM_ERR_INVALID_ARGUMENT", "profile.address: record address needs its field city" })
  -- A command with three named arguments returning a record (holding a record and an array).
  local contact = profile:contact{ name = "Ada", street = "2 Elm St", city = "Paris" }
  check("profile: contact{name, street, city} gives a record", contact,
        { name = "Ada", address = { street = "2 Elm St", city = "Paris" }, tags = { "swift", "lua" } })
  check("profile: the same by position", profile:contact("Ada", "2 Elm St", "Paris"), contact)
  -- A throwing command: nil and the message; what it changed first is notified.
  local saves = subscribe(profile, "saves")
  check("profile: move_tag{from, to} moves", { profile:move_tag{ from = 1, to = 0 } == profile, profile.tags },
        { true, { "lua", "swift" } })
  check("profile: a throwing command gives nil and the message",
        { profile:move_tag(0, 5) }, { nil, "profile.move_tag failed: no tag at 5 (there are 2)", "MVVM_ERR_COMMAND_FAILED" })
  check("profile: the failed move was counted and notified", values(saves), { 1, 2 })
  -- A computed property (no publisher of its own), notified once per operation.
  local names = subscribe(profile, "full_name", function() return profile.full_name end)
  profile.first = "Ada"
  profile.last = "Lovelace"
  profile.last = "Lovelace"
  profile.tags = { "x" }
  check("profile: full_name notified once per change, after it", names,
        { { "full_name", "Ada", "Ada" }, { "full_name", "Ada Lovelace", "Ada Lovelace" } })

  -- Async commands (mvvm_call_async): the completion function last, called once with (result,
  -- nil) or (nil, error), on a virtual loop exactly when an advance reaches the call's end.
  do
    local destroyed = mvvm.destroyed
    local clock = lib:loop("virtual")
    local loader = lib.Profile.new(clock)
    local ends = {}
    local function ended(result, err)
      ends[#ends + 1] = { result, err and err.status, err and err.message, mvvm.closed(clock) and "closed" or clock:now() }
    end
    local call = loader:load(3, ended)
    check("async: load(3) runs, held until it ends", { call:done(), #ends, mvvm.calls() }, { false, 0, 1 })
    clock:advance(2999)
    check("async: not ended at 2999 ms", { call:done(), loader.tags, #ends }, { false, { "t0", "t1" }, 0 })
    clock:advance(1)
    check("async: ended exactly at 3000 ms, with its result", ends, { { { "t0", "t1", "t2" }, nil, nil, 3000 } })
    check("async: call:result(), nothing held, nothing to cancel",
          { call:done(), call:result(), mvvm.calls(), call:cancel() }, { true, { "t0", "t1", "t2" }, 0, false })
    clock:advance(5000)
    check("async: ended once", #ends, 1)

    ends = {}
    local failing = loader:load(-1, ended)
    check("async: a throwing command ends with its error",
          ends, { { nil, "MVVM_ERR_COMMAND_FAILED", "profile.load failed: cannot load -1 tags", 8000 } })
    check("async: tostring of the error", tostring(failing.err),
          "MVVM_ERR_COMMAND_FAILED: profile.load failed: cannot load -1 tags")
    check("async: call:result() gives nil, the message and the status", { failing:result() },
          { nil, "profile.load failed: cannot load -1 tags", "MVVM_ERR_COMMAND_FAILED" })

    ends = {}
    local pinged = loader:ping(ended)
    check("async: a command that does not suspend ends before its method returns",
          { ends, pinged:done(), pinged:result() }, { { { 0, nil, nil, 8000 } }, true, 0 })
    check("async: arguments by name; no completion function", loader:load{ count = 0 }:result(), { "t0", "t1", "t2" })
    check("async: a call the library refuses raises at once", { refused(loader.load, loader, "3", ended) },
          { "MVVM_ERR_TYPE_MISMATCH", "argument 1 of profile.load (count) is of type int, not bytes" })
    check("async: one missing", (refused(loader.load, loader, ended)), "MVVM_ERR_INVALID_ARGUMENT")
    check("async: nothing started, nothing held", { #ends, mvvm.calls() }, { 1, 0 })

    ends = {}
    local cancelled = loader:load(5, ended)
    clock:advance(1000)
    check("async: cancel takes, and ends the call now", { cancelled:cancel(), #ends, ends[1] and ends[1][2], ends[1] and ends[1][4] },
          { true, 1, "MVVM_ERR_CANCELLED", 9000 })
    check("async: with the library's message", ends[1][3]:match("profile.load was cancelled") ~= nil, true)
    check("async: a second cancel does not take", cancelled:cancel(), false)
    clock:advance(10000)
    check("async: its task was cancelled: no more tags, no second end", { #loader.tags, #ends }, { 4, 1 })

    local raising = loader:load(1, function() error("from the completion") end)
    local ok, e = pcall(clock.advance, clock, 1000)
    check("async: an error the completion raises is raised from the advance that ended it",
          { ok, tostring(e):match("from the completion") ~= nil, raising:done(), mvvm.calls() }, { false, true, true, 0 })

    ends = {}
    local first, other = lib.Profile.new(clock), lib.Profile.new(clock)
    first:load(5, ended)
    first:load(5, ended)
    local third = other:load(5, ended)
    clock:advance(1500)
    mvvm.close(first)
    check("async: closing the object cancels its calls, each once",
          { #ends, ends[1][2], ends[2][2], ends[1][3]:match("its object was released") ~= nil, third:done() },
          { 2, "MVVM_ERR_CANCELLED", "MVVM_ERR_CANCELLED", true, false })
    mvvm.close(clock)
    check("async: closing the loop cancels the rest, once", { #ends, ends[3] and ends[3][2], ends[3] and ends[3][4], third:done(), mvvm.calls() },
          { 3, "MVVM_ERR_CANCELLED", "closed", true, 0 })
    check("async: an ended call does not cancel", third:cancel(), false)
    check("async: each call's destroy function ran once (a call refused too)", mvvm.destroyed - destroyed, 11)
    mvvm.close(other)
    mvvm.close(loader)

    local threaded = lib:loop("thread")
    local remote = lib.Profile.new(threaded)
    local status_name, refusal = refused(remote.load, remote, 1, ended)
    check("async: objects of a thread loop refuse async calls", { status_name, refusal:match("thread loop") ~= nil, #ends },
          { "error", true, 3 })
    mvvm.close(remote)
    mvvm.close(threaded)
  end
  local saved = subscribe(profile, "saved")
  local kept = profile:save()
  check("profile: save gives a record, and signals it", { kept.name, saved[1] and saved[1][2] }, { "Ada Lovelace", kept })

  -- Wishlist (an @Observable class): an array of optionals, an optional record, results.
  local wishlist = lib.Wishlist.new(loop)
  check("wishlist: add gives the count", { wishlist:add("pen", 2.5), wishlist:add{ item = "cap" } }, { 1, 2 })
  check("wishlist: prices hold a null", { wishlist.prices, wishlist.total }, { { 2.5, mvvm.null }, 2.5 })
  wishlist.prices = { 1, mvvm.null }
  wishlist.budget = 10
  check("wishlist: set back", { wishlist.prices, wishlist.total, wishlist.budget, wishlist.home }, { { 1, mvvm.null }, 1, 10, nil })
  check("wishlist: item(1)", wishlist:item(1), "cap")
  check("wishlist: item{index = 5} fails", { wishlist:item{ index = 5 } }, { nil, "wishlist.item failed: no item 5", "MVVM_ERR_COMMAND_FAILED" })

  -- Dialog: members named like the bindings' own functions, reached by their names.
  local dialog = lib.Dialog.new(loop)
  check("dialog: properties by their names",
        { dialog.description, dialog.closed, dialog.handle, dialog.loop, dialog.id, dialog.class },
        { "A dialog", false, 7, "main", 42, "modal" })
  dialog.class = "sheet"
  dialog.loop = "background"
  local bound = subscribe(dialog, "bind")
  dialog:close()
  dialog:subscribe()
  dialog:unsubscribe()
  dialog:get()
  dialog:set()
  dialog:describe()
  dialog:snapshot()
  dialog:send("hello")
  dialog:move{ from = 1, to = 2 }
  check("dialog: commands by their names", dialog.log,
        { "close", "subscribe", "unsubscribe", "get", "set", "describe", "snapshot", "send hello", "move 1 2" })
  check("dialog: close ran the command", { dialog.closed, mvvm.closed(dialog), dialog.class, dialog.loop },
        { true, false, "sheet", "background" })
  check("dialog: the signal bind", values(bound), { "hello" })
  check("dialog: the bindings' own functions", { mvvm.handle(dialog) ~= 7, mvvm.loop_of(dialog) == loop,
        mvvm.class_of(dialog).name, mvvm.describe(dialog).class, mvvm.snapshot(dialog).class },
        { true, true, "dialog", "dialog", "sheet" })
  check("dialog: a keyword takes a trailing underscore", mvvm.lua_name("end"), "end_")
  for _, object in ipairs({ profile, wishlist, dialog }) do mvvm.close(object) end
  check("release: their subscriptions ended", mvvm.subscriptions(), subscriptions_before)
else
  print("(no profile, wishlist or dialog in this library: run it with Tests/outside/.build/debug/libsample.so for them)")
end

-- Foundation's values (Order): a UUID, URL or Decimal is its text, a date its seconds since 1970.
if classes.order then
  local order = lib.Order.new(loop)
  order.id = "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"
  order.placed = -1e10 + 0.5
  order.link = "https://例え.jp/パス"
  order.cost = "-1.50E-3"
  check("order: each kind read back as the library gives it", { order.id, order.placed, order.link, order.cost },
        { "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", -1e10 + 0.5, "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9", "-0.0015" })
  check("order: a malformed decimal is refused, naming the member", { refused(function() order.cost = "1.2.3" end) },
        { "MVVM_ERR_INVALID_ARGUMENT", 'order.cost cannot hold "1.2.3": it is no decimal number (-?digits(.digits)?([eE][+-]?digits)?)' })
  mvvm.close(order)
end

-- A second library side by side: its own classes, loops and handles.
if other_path then
  local other = mvvm.load(other_path)
  check("libraries: each loaded once", { mvvm.load(other_path) == other, other ~= lib }, { true, true })
  local other_loop = other:loop("virtual")
  -- Here, the catalog's counter, or the sample's tally in a library without the catalog; there,
  -- the catalog's (the second library is libcatalog.so).
  local here_counter, there_counter = (lib.classes.counter or lib.classes.tally).new(loop, lib.classes.counter and nil or 0),
                                      other.classes.counter.new(other_loop)
  local here_count = lib.classes.counter and function() here_counter:increment() return here_counter.count end
                     or function() here_counter:add() return here_counter.total end
  there_counter:increment()
  there_counter:increment()
  check("libraries: one class in each, each its own objects", { here_count(), there_counter.count }, { 1, 2 })
  local foreign = "handle 0x%x+ is a handle of another libmvvm library loaded in this process"
  status, message = refused(other.classes.counter.new, loop)
  check("libraries: a loop of one is refused by the other",
        { status, message:match("^the loop " .. foreign) ~= nil }, { "MVVM_ERR_INVALID_HANDLE", true })
  status, message = refused(other.classes.counter_view_model.new, other_loop, here_counter)
  check("libraries: a model of one is refused by the other",
        { status, message:match("^the model %(model%) " .. foreign) ~= nil }, { "MVVM_ERR_INVALID_HANDLE", true })
  mvvm.close(here_counter)
  mvvm.close(there_counter)
  mvvm.close(other_loop)
end

mvvm.close(loop)
check("release: the loop's release ended the stop watch's", mvvm.subscriptions(), 0)
if watch then
  status = status_of("mvvm_get_string", mvvm.handle(watch), "time", ffi.new("char *[1]"))
  check("release: the stop watch's loop is gone", status, "MVVM_ERR_LOOP_RELEASED")
  mvvm.close(watch)
end

print(string.format("lua: %d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
