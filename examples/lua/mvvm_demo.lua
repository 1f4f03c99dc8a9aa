-- LuaJIT drives libmvvm through its unchanged C ABI.
--
--   luajit examples/lua/mvvm_demo.lua LIBMVVM_SO MVVM_H_PREPROCESSED
--
-- The API is declared with ffi.cdef from include/mvvm.h itself, passed through the C
-- preprocessor (cpp -P -E include/mvvm.h, done by run.sh): not one declaration is written here.
-- Nor is any class: the script reads every class the library exports from mvvm_classes (a JSON
-- array, read by the small JSON reader below) into a table of classes, each making objects
-- through mvvm_new, whose properties read and (bindings only) write as fields and whose commands
-- are methods, all through the generic calls. With it the script drives the sign-up view model
-- (its validation flips notified through an ffi.cast callback) and the stop watch view model on
-- a virtual loop, and, when the library has them (Tests/outside's libsample.so), the greeter
-- (an ObservableObject) and the tally (an @Observable class) of a package outside libmvvm. It
-- checks every result exactly and ends with "lua: N passed, N failed"; it exits non-zero when a
-- check failed.

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

-- The Lua value of an mvvm_value.
local function lua_value(value)
  if value.type == C.MVVM_TYPE_BOOL then
    return value.boolean
  elseif value.type == C.MVVM_TYPE_INT then
    return tonumber(value.integer)
  elseif value.type == C.MVVM_TYPE_DOUBLE then
    return value.number
  elseif value.type == C.MVVM_TYPE_STRING then
    return ffi.string(value.string)
  end
  return nil
end

local on_event = ffi.cast("mvvm_callback", function(source, event, user_data)
  local subscriber = subscribers[tonumber(ffi.cast("intptr_t", user_data))]
  -- probe(), when the subscriber has one, says what the getters read inside the callback.
  local probe = subscriber.probe
  subscriber[#subscriber + 1] = { ffi.string(event.name), lua_value(event.value), probe and probe() }
end)

local on_destroy = ffi.cast("mvvm_destroy_fn", function(user_data)
  subscribers[tonumber(ffi.cast("intptr_t", user_data))] = nil
  destroyed = destroyed + 1
end)

local next_key = 0

-- Subscribes to `name` of `object` (nil: everything); returns the list the events are appended
-- to, each {name, value, probe()}.
local function subscribe(object, name, probe)
  if type(object) == "table" then object = object.handle end
  next_key = next_key + 1
  local events = { probe = probe }
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

-- --- a small JSON reader (enough for mvvm_classes) ---------------------------------------------

-- Reads one JSON text: objects become tables by key, arrays tables 1..n, null a `json_null`.
local json_null = setmetatable({}, { __tostring = function() return "null" end })

local function json_decode(text)
  local pos = 1
  local function fail(what)
    error(string.format("JSON: %s at byte %d", what, pos), 0)
  end
  local function skip()
    pos = text:find("[^ \t\r\n]", pos) or #text + 1
  end
  local function utf8(code)
    if code < 0x80 then return string.char(code) end
    if code < 0x800 then return string.char(0xC0 + math.floor(code / 0x40), 0x80 + code % 0x40) end
    if code < 0x10000 then
      return string.char(0xE0 + math.floor(code / 0x1000), 0x80 + math.floor(code / 0x40) % 0x40, 0x80 + code % 0x40)
    end
    return string.char(0xF0 + math.floor(code / 0x40000), 0x80 + math.floor(code / 0x1000) % 0x40,
                       0x80 + math.floor(code / 0x40) % 0x40, 0x80 + code % 0x40)
  end
  local escapes = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
  local value
  local function read_string()
    pos = pos + 1 -- the opening quote
    local parts = {}
    while true do
      local stop = text:find('["\\]', pos)
      if not stop then fail("unterminated string") end
      parts[#parts + 1] = text:sub(pos, stop - 1)
      pos = stop + 1
      if text:sub(stop, stop) == '"' then return table.concat(parts) end
      local e = text:sub(pos, pos)
      if e == "u" then
        local code = tonumber(text:sub(pos + 1, pos + 4), 16) or fail("bad \\u escape")
        pos = pos + 5
        if code >= 0xD800 and code < 0xDC00 and text:sub(pos, pos + 1) == "\\u" then
          local low = tonumber(text:sub(pos + 2, pos + 5), 16) or fail("bad \\u escape")
          code = 0x10000 + (code - 0xD800) * 0x400 + (low - 0xDC00)
          pos = pos + 6
        end
        parts[#parts + 1] = utf8(code)
      else
        parts[#parts + 1] = escapes[e] or fail("bad escape")
        pos = pos + 1
      end
    end
  end
  function value()
    skip()
    local c = text:sub(pos, pos)
    if c == "{" then
      local object = {}
      pos = pos + 1
      skip()
      if text:sub(pos, pos) == "}" then pos = pos + 1; return object end
      while true do
        skip()
        if text:sub(pos, pos) ~= '"' then fail("expected a key") end
        local key = read_string()
        skip()
        if text:sub(pos, pos) ~= ":" then fail("expected ':'") end
        pos = pos + 1
        object[key] = value()
        skip()
        c = text:sub(pos, pos)
        pos = pos + 1
        if c == "}" then return object end
        if c ~= "," then fail("expected ',' or '}'") end
      end
    elseif c == "[" then
      local array = {}
      pos = pos + 1
      skip()
      if text:sub(pos, pos) == "]" then pos = pos + 1; return array end
      while true do
        array[#array + 1] = value()
        skip()
        c = text:sub(pos, pos)
        pos = pos + 1
        if c == "]" then return array end
        if c ~= "," then fail("expected ',' or ']'") end
      end
    elseif c == '"' then
      return read_string()
    end
    for word, v in pairs({ ["true"] = true, ["false"] = false, null = json_null }) do
      if text:sub(pos, pos + #word - 1) == word then
        pos = pos + #word
        return v
      end
    end
    local number = text:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
    if not number or number == "" then fail("unexpected " .. (c == "" and "end" or c)) end
    pos = pos + #number
    return tonumber(number)
  end
  local result = value()
  skip()
  if pos <= #text then fail("trailing text") end
  return result
end

-- --- classes, from mvvm_classes ------------------------------------------------------------------

-- classes[c_name] = { name, swift_name, doc, properties = {name = {type, access, doc}},
-- commands = {name = {argument, doc}}, signals = {name = type}, children = {name = class},
-- constructors = {{name, arguments = {{name, type}, ...}}, ...}, new = function(loop, ...) }.
-- An object is a table with `handle`; its properties read as fields, bindings write as fields
-- (an output raises MVVM_ERR_READ_ONLY from the library), commands are methods (obj:start()),
-- children are fields giving a new object. Nothing below names a class.
local classes, class_order = {}, {}

local getters = { bool = "bool[1]", int = "int64_t[1]", double = "double[1]", string = "char *[1]" }

local function get(object, name, kind)
  local out = ffi.new(getters[kind])
  call("mvvm_get_" .. kind, object.handle, name, out)
  if kind == "string" then
    local value = ffi.string(out[0])
    C.mvvm_string_free(out[0])
    return value
  elseif kind == "int" then
    return tonumber(out[0])
  end
  return out[0]
end

-- Fills the mvvm_value `slot` with `v` as `kind` says; keeps strings alive in `keep`.
local function fill_value(slot, kind, v, keep)
  if kind == "bool" then
    slot.type, slot.boolean = C.MVVM_TYPE_BOOL, v
  elseif kind == "int" then
    slot.type, slot.integer = C.MVVM_TYPE_INT, v
  elseif kind == "double" then
    slot.type, slot.number = C.MVVM_TYPE_DOUBLE, v
  elseif kind == "string" then
    keep[#keep + 1] = v
    slot.type, slot.string = C.MVVM_TYPE_STRING, v
  elseif kind == "object" or kind == "service" then
    slot.type, slot.object = C.MVVM_TYPE_OBJECT, type(v) == "table" and v.handle or v
  else
    error("no value of type " .. tostring(kind), 3)
  end
end

local wrap

local function make_class(description)
  local class = {
    name = description.class, swift_name = description.swift_name, doc = description.doc,
    properties = {}, commands = {}, signals = {}, children = {}, constructors = description.constructors,
  }
  for _, p in ipairs(description.properties) do class.properties[p.name] = p end
  for _, c in ipairs(description.commands) do class.commands[c.name] = c end
  for _, s in ipairs(description.signals) do class.signals[s.name] = s.type end
  for _, child in ipairs(description.children) do class.children[child] = description.child_classes[child] end

  local methods = {}
  for name, command in pairs(class.commands) do
    methods[name] = function(self, argument)
      if command.argument == "none" then
        call("mvvm_send", self.handle, name, nil)
      else
        local value, keep = ffi.new("mvvm_value[1]"), {}
        fill_value(value[0], command.argument, argument, keep)
        call("mvvm_send", self.handle, name, value)
      end
      return self
    end
  end
  class.meta = {
    __index = function(self, key)
      local property = class.properties[key]
      if property then return get(self, key, property.type) end
      if class.children[key] then
        local out = ffi.new("mvvm_handle[1]")
        call("mvvm_child", self.handle, key, out)
        return wrap(out[0])
      end
      return methods[key]
    end,
    __newindex = function(self, key, v)
      local property = class.properties[key] or error(class.name .. " has no property " .. key, 2)
      call("mvvm_set_" .. property.type, self.handle, key, v)
    end,
  }
  -- new(loop, ...): mvvm_new with the constructor that takes that many arguments.
  function class.new(loop, ...)
    local n = select("#", ...)
    local args = { ... }
    for _, constructor in ipairs(class.constructors) do
      if #constructor.arguments == n then
        local values, keep = ffi.new("mvvm_value[?]", math.max(n, 1)), {}
        for i, argument in ipairs(constructor.arguments) do fill_value(values[i - 1], argument.type, args[i], keep) end
        local out = ffi.new("mvvm_handle[1]")
        call("mvvm_new", loop, class.name, values, n, out)
        return wrap(out[0])
      end
    end
    error(string.format("no constructor of %s takes %d arguments", class.name, n), 2)
  end
  return class
end

-- An object table for a handle, of the class its library object says.
function wrap(handle)
  local name = ffi.new("const char *[1]")
  call("mvvm_class_name", handle, name)
  local class = classes[ffi.string(name[0])]
  return setmetatable({ handle = handle, class = class }, class.meta)
end

do
  local out = ffi.new("char *[1]")
  call("mvvm_classes", out)
  local text = ffi.string(out[0])
  C.mvvm_string_free(out[0])
  for _, description in ipairs(json_decode(text)) do
    classes[description.class] = make_class(description)
    class_order[#class_order + 1] = description.class
  end
end

-- The status of setting `key` of `object`, with the library's message.
local function set_status(object, kind, key, v)
  return status_of("mvvm_set_" .. kind, object.handle, key, v)
end

-- --- the demo ---------------------------------------------------------------------------------

check("library version is 0.MINOR.PATCH", ffi.string(C.mvvm_version()):match("^0%.%d+%.%d+$") ~= nil, true)
check("classes: the catalog's are described",
      { classes.sign_up_view_model ~= nil, classes.stop_watch_view_model ~= nil, classes.counter_page_view_model ~= nil },
      { true, true, true })
check("classes: a class says its Swift name and doc",
      { classes.sign_up_view_model.swift_name, classes.counter.doc }, { "SignUpViewModel", "A counter." })
check("classes: properties with type and access",
      { classes.sign_up_view_model.properties.user_id.access, classes.sign_up_view_model.properties.is_sign_up_enabled.access,
        classes.stop_watch.properties.time_ms.type }, { "rw", "ro", "int" })
check("classes: children with their classes", classes.timer_view_model.children.player, "player_view_model")

local loop = create("mvvm_loop_new", C.MVVM_LOOP_VIRTUAL)

-- Sign-up: validation on every binding, flips notified through the callback.
local FAMILY = "\240\159\145\168\226\128\141\240\159\145\169\226\128\141\240\159\145\167\226\128\141\240\159\145\166"
local sign_up = classes.sign_up_view_model.new(loop)
local flips = subscribe(sign_up, "is_sign_up_enabled")
local alerts = subscribe(sign_up, "is_completion_alert_presented")

sign_up.user_id = "abcde"
call("mvvm_set_string", sign_up.handle, "password", "12345678")
call("mvvm_set_string", sign_up.handle, "confirm_password", "12345678")
call("mvvm_set_bool", sign_up.handle, "agreed", true)
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
check("sign-up: the id reads back byte for byte", get_string(sign_up.handle, "user_id"), string.rep(FAMILY, 6))
sign_up.user_id = string.rep(FAMILY, 5)
check("sign-up: five families are 5 characters", values(flips), { true, false, true, false })
sign_up.user_id = "abcdef"
sign_up.agreed = false
check("sign-up: disagreeing disables it", values(flips), { true, false, true, false, true, false })

sign_up:sign_up_tapped()
check("sign-up: a tap while disabled does nothing", sign_up.is_completion_alert_presented, false)
sign_up.agreed = true
call("mvvm_send", sign_up.handle, "sign_up_tapped", nil)
check("sign-up: the built-in service presents the alert", values(alerts), { true })

local status, message = set_status(sign_up, "bool", "is_sign_up_enabled", false)
check("sign-up: an output is read-only", status, "MVVM_ERR_READ_ONLY")
check("sign-up: with the library's message", message, "sign_up_view_model.is_sign_up_enabled is read-only")
status = set_status(sign_up, "string", "user_id", "\255")
check("sign-up: bad UTF-8 is refused", status, "MVVM_ERR_INVALID_ARGUMENT")

-- Stop watch: time on the loop's clock, titles by state.
local watch = classes.stop_watch_view_model.new(loop)
local times = subscribe(watch, "time")
check("stop watch: starts at", watch.time, "00:00:00.00")
check("stop watch: main action", watch.main_action_title, "Start")
watch:main_action()
check("stop watch: running", watch.main_action_title, "Stop")
call("mvvm_loop_advance", loop, 1230)
check("stop watch: loop time", now(loop), 1230)
check("stop watch: time after 1230 ms", watch.time, "00:00:01.23")
check("stop watch: one event per 10 ms tick", #times, 123)
check("stop watch: the last event", times[#times] and times[#times][2], "00:00:01.23")
check("stop watch: clear is disabled while running", get_bool(watch.handle, "clear_action_enabled"), false)
call("mvvm_send", watch.handle, "main_action", nil)
check("stop watch: stopped", watch.main_action_title, "Resume")
check("stop watch: clear is enabled", watch.clear_action_enabled, true)
call("mvvm_loop_advance", loop, 500)
check("stop watch: stopped time stays", watch.time, "00:00:01.23")
watch:clear_action()
check("stop watch: cleared", watch.time, "00:00:00.00")
check("stop watch: startable again", watch.main_action_title, "Start")
check("stop watch: events", #times, 124)
status = status_of("mvvm_loop_dispatch", loop, nil)
check("stop watch: a virtual loop does not dispatch", status, "MVVM_ERR_WRONG_LOOP_KIND")

-- A constructor over a model, and children, through the same class table.
local timer = classes.count_down_timer.new(loop, 3)
local timer_screen = classes.timer_view_model.new(loop, timer)
local display = timer_screen.display
check("timer: a view model over a model, its child", { display.class.name, display.remaining_time }, { "display_view_model", 3 })
check("timer: a constructor's count is checked", (pcall(classes.count_down_timer.new, loop)), false)
call("mvvm_release", display.handle)
call("mvvm_release", timer_screen.handle)
call("mvvm_release", timer.handle)

-- Releasing ends the subscriptions: each destroy function runs once.
call("mvvm_release", sign_up.handle)
check("release: the sign-up's two subscriptions ended", destroyed, 2)

-- The classes of a package outside libmvvm (Tests/outside's libsample.so): the same table, with
-- no Lua written for them.
if classes.greeter and classes.tally then
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
  status = status_of("mvvm_send", tally.handle, "add_many", nil)
  check("tally: add_many needs its argument", status, "MVVM_ERR_TYPE_MISMATCH")
  for _, object in ipairs({ greeter, named, tally }) do call("mvvm_release", object.handle) end
  check("release: the greeter's and the tally's subscriptions ended", destroyed, 4)
else
  print("(no greeter or tally in this library: run it with Tests/outside/.build/debug/libsample.so for them)")
end

call("mvvm_release", loop)
check("release: the loop's release ended the stop watch's", destroyed, classes.greeter and classes.tally and 5 or 3)
status = status_of("mvvm_get_string", watch.handle, "time", ffi.new("char *[1]"))
check("release: the stop watch's loop is gone", status, "MVVM_ERR_LOOP_RELEASED")
call("mvvm_release", watch.handle)
check("release: no subscriber left", next(subscribers), nil)

on_event:free()
on_destroy:free()

print(string.format("lua: %d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
