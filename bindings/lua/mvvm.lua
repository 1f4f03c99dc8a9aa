-- mvvm.lua: libmvvm for LuaJIT, over its C ABI through the FFI.
--
--   local mvvm = require("mvvm")
--   mvvm.declare("mvvm.i")                     -- include/mvvm.h through cpp -P -E (declare.sh makes it)
--   local lib = mvvm.load("libsample.so")      -- a library by its path: there is no default one
--   local loop = lib:loop("virtual")
--   local profile = lib.Profile.new(loop)
--   profile.address = { street = "1 Main St", city = "London" }
--   local contact = profile:contact{ name = "Ada", street = "2 Elm St", city = "Paris" }
--   local ok, message = profile:move_tag(0, 5) -- nil, "profile.move_tag failed: ..." when it throws
--   local call = profile:load(3, function(tags, err) print(tags, err) end)  -- an async command
--   loop:advance(3000)                         -- the call ends: its function runs, once
--
-- No class is written here: mvvm.load reads the library's classes from mvvm_classes. A library
-- is a namespace: its classes by the display name its description gives (lib.Profile; a
-- trailing underscore when the namespace has that field already, lib.C_) and in lib.classes by
-- C name (lib.classes.profile), its records' fields in lib.records, and lib:loop(kind) makes a loop of
-- it. Several libraries may be loaded side by side (each through ffi.load, its symbols its own);
-- an object works with its own library only (a library refuses another's handles: each carries
-- its library's tag).
--
-- An object is a table whose fields are its members, and only those: properties read (and,
-- bindings, write) as fields, commands are methods (obj:close()), children are fields. A member
-- named like a Lua keyword takes a trailing underscore (obj.end_). What the bindings do to an
-- object is a function of this module, which no member can take: mvvm.handle(obj),
-- mvvm.close(obj), mvvm.subscribe(obj, name, fn), mvvm.get/set/call(obj, name, ...),
-- mvvm.describe(obj), mvvm.snapshot(obj), mvvm.class_of(obj), mvvm.loop_of(obj).
--
-- Values cross in a neutral form and the library decides what each member takes: nil (or
-- mvvm.null inside a table) is no value; booleans; numbers (whole ones as integers, int64_t and
-- uint64_t cdata as themselves); strings as their bytes (the library takes UTF-8 bytes for a
-- string); a table with an array part (or empty) as an array, one with string keys as a record
-- by field names; an object as its handle. Read back: no value is nil (mvvm.null inside an
-- array), bytes and strings are Lua strings (NUL included), arrays are tables 1..n, records are
-- tables of their fields.
--
-- Errors: a call the library refuses raises a table {status = "MVVM_ERR_...", message = ...}
-- (tostring gives both); a command whose Swift code throws returns nil, its message and
-- "MVVM_ERR_COMMAND_FAILED" instead, as Lua's own functions report failures.
--
-- An async command (a Swift `async` function) takes its arguments as a plain command does, then
-- a completion function, and returns a call (call:done(), call:cancel(), call:result()) at once
-- (mvvm.call_async). The function runs exactly once, on the thread that runs the loop's work:
-- fn(result, nil), or fn(nil, err) with an error table whose status is
-- "MVVM_ERR_COMMAND_FAILED" (it threw) or "MVVM_ERR_CANCELLED" (call:cancel(), or its object or
-- loop closed). Objects of a thread loop refuse async calls.

local ffi = require("ffi")

-- A C function called through the FFI from a JIT-compiled trace must not call back into Lua
-- (LuaJIT raises "bad callback"). Setters, commands and advancing a loop call back, so the
-- module runs interpreted; a hot path would jit.off() only the functions that call back.
jit.off()

local mvvm = {}

-- What no value is inside a table (an array element, a record field), where nil cannot stand.
mvvm.null = setmetatable({}, { __tostring = function() return "mvvm.null" end })

-- --- errors -------------------------------------------------------------------------------------

local error_meta = { __tostring = function(e) return e.status .. ": " .. e.message end }

local function raise(status, message, level)
  error(setmetatable({ status = status, message = message }, error_meta), level or 3)
end

-- --- a small JSON reader (enough for mvvm_classes) ---------------------------------------------

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
  -- At the start of an object's or an array's items: true (and past it) when `close` ends it.
  local function empty(close)
    pos = pos + 1
    skip()
    if text:sub(pos, pos) ~= close then return false end
    pos = pos + 1
    return true
  end
  -- After one of its items: true (and past it) at `close`, false past a comma.
  local function ends(close)
    skip()
    local c = text:sub(pos, pos)
    pos = pos + 1
    if c == close then return true end
    if c ~= "," then fail("expected ',' or '" .. close .. "'") end
    return false
  end
  function value()
    skip()
    local c = text:sub(pos, pos)
    if c == "{" then
      local object = {}
      if empty("}") then return object end
      repeat
        skip()
        if text:sub(pos, pos) ~= '"' then fail("expected a key") end
        local key = read_string()
        skip()
        if text:sub(pos, pos) ~= ":" then fail("expected ':'") end
        pos = pos + 1
        object[key] = value()
      until ends("}")
      return object
    elseif c == "[" then
      local array = {}
      if empty("]") then return array end
      repeat
        array[#array + 1] = value()
      until ends("]")
      return array
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

mvvm.json_decode = json_decode
mvvm.json_null = json_null

-- --- names --------------------------------------------------------------------------------------

local keywords = {}
for word in ("and break do else elseif end false for function goto if in local nil not or repeat "
             .. "return then true until while"):gmatch("%S+") do
  keywords[word] = true
end

-- The Lua name of a member, argument or field: its own, or with a trailing underscore for a
-- Lua keyword ("end" -> "end_").
function mvvm.lua_name(name)
  return keywords[name] and name .. "_" or name
end

-- The library's name of a Lua name ("end_" -> "end"; anything else as it is).
local function library_name(name)
  if type(name) == "string" and name:sub(-1) == "_" and keywords[name:sub(1, -2)] then
    return name:sub(1, -2)
  end
  return name
end

-- --- the C ABI ----------------------------------------------------------------------------------

local declared = false
-- The three C function pointers every subscription and async call shares (see "notifications"
-- and "async calls"), made once the ABI is declared and kept for the life of the process: none
-- is ever freed, so C never calls a freed callback.
local on_event, on_done, on_destroy, deliver, complete, destroy

-- Declares the C ABI from include/mvvm.h passed through the C preprocessor (cpp -P -E), read
-- from `path`: not one declaration is written here.
function mvvm.declare(path)
  if declared then return end
  local file = assert(io.open(path, "r"))
  ffi.cdef(file:read("*a"))
  file:close()
  declared = true
  on_event = ffi.cast("mvvm_callback", deliver)
  on_done = ffi.cast("mvvm_done_fn", complete)
  on_destroy = ffi.cast("mvvm_destroy_fn", destroy)
end

-- Objects and loops: their handle, class, loop and library, kept beside them so that no field
-- of theirs is the bindings'.
local state = setmetatable({}, { __mode = "k" })

local function owner(object)
  return state[object] or error("not an object of libmvvm: " .. tostring(object), 3)
end

-- Calls C.<name>(...) of `lib`; raises the status and the library's message on failure, and
-- then an error a subscriber raised during the call.
local pending

local function check(lib, status, name)
  if status ~= 0 then
    local message = ffi.string(lib.C.mvvm_last_error())
    pending = nil
    raise(ffi.string(lib.C.mvvm_status_name(status)), message, 4)
  end
  if pending then
    local e = pending
    pending = nil
    error(e, 4)
  end
end

local function call(lib, name, ...)
  check(lib, lib.C[name](...), name)
end

-- --- values -------------------------------------------------------------------------------------

local int64_t, uint64_t = ffi.typeof("int64_t"), ffi.typeof("uint64_t")

-- Fills the mvvm_value `slot` with the Lua value `v` for `lib`; keeps what it points to in `keep`.
local function fill(lib, slot, v, keep)
  local kind = type(v)
  if v == nil or v == mvvm.null then
    slot.type = ffi.C.MVVM_TYPE_NULL
  elseif kind == "boolean" then
    slot.type, slot.boolean = ffi.C.MVVM_TYPE_BOOL, v
  elseif kind == "number" then
    if v == math.floor(v) and math.abs(v) < 2 ^ 53 then
      slot.type, slot.integer = ffi.C.MVVM_TYPE_INT, v
    else
      slot.type, slot.number = ffi.C.MVVM_TYPE_DOUBLE, v
    end
  elseif kind == "cdata" and ffi.istype(uint64_t, v) then
    slot.type, slot.integer = ffi.C.MVVM_TYPE_UINT, ffi.cast("int64_t", v)
  elseif kind == "cdata" and ffi.istype(int64_t, v) then
    slot.type, slot.integer = ffi.C.MVVM_TYPE_INT, v
  elseif kind == "string" then
    keep[#keep + 1] = v
    slot.type, slot.string, slot.integer = ffi.C.MVVM_TYPE_BYTES, v, #v
  elseif kind == "table" and state[v] then
    slot.type, slot.object = ffi.C.MVVM_TYPE_OBJECT, state[v].handle
  elseif kind == "table" and (#v > 0 or next(v) == nil) then
    local items = ffi.new("mvvm_value[?]", math.max(#v, 1))
    keep[#keep + 1] = items
    for i = 1, #v do fill(lib, items[i - 1], v[i], keep) end
    slot.type, slot.integer = ffi.C.MVVM_TYPE_ARRAY, #v
    slot.object = ffi.cast("uintptr_t", items)
  elseif kind == "table" then
    local pairs_list = {}
    for key, value in pairs(v) do
      pairs_list[#pairs_list + 1] = library_name(key)
      pairs_list[#pairs_list + 1] = value
    end
    local items = ffi.new("mvvm_value[?]", #pairs_list)
    keep[#keep + 1] = items
    for i = 1, #pairs_list, 2 do
      local name = tostring(pairs_list[i])
      keep[#keep + 1] = name
      items[i - 1].type, items[i - 1].string = ffi.C.MVVM_TYPE_STRING, name
      fill(lib, items[i], pairs_list[i + 1], keep)
    end
    slot.type, slot.integer = ffi.C.MVVM_TYPE_MAP, #pairs_list / 2
    slot.object = ffi.cast("uintptr_t", items)
  else
    error("a " .. kind .. " is no value of libmvvm", 4)
  end
end

-- An mvvm_value[n] of `values` (1..n), and what must live as long as it.
local function pack(lib, values, n)
  local array, keep = ffi.new("mvvm_value[?]", math.max(n, 1)), {}
  for i = 1, n do fill(lib, array[i - 1], values[i], keep) end
  return array, keep
end

-- The Lua value of the mvvm_value `v` of `lib`; `inside` for an element or field.
local function lua_value(lib, v, inside)
  local t = tonumber(v.type)
  if t == ffi.C.MVVM_TYPE_BOOL then
    return v.boolean
  elseif t == ffi.C.MVVM_TYPE_INT then
    return tonumber(v.integer)
  elseif t == ffi.C.MVVM_TYPE_UINT then
    return tonumber(ffi.cast("uint64_t", v.integer))
  elseif t == ffi.C.MVVM_TYPE_DOUBLE then
    return v.number
  elseif t == ffi.C.MVVM_TYPE_STRING or t == ffi.C.MVVM_TYPE_BYTES then
    if v.string == nil then return "" end
    return ffi.string(v.string, v.integer)
  elseif t == ffi.C.MVVM_TYPE_ARRAY then
    local items, array = ffi.cast("const mvvm_value *", v.object), {}
    for i = 0, tonumber(v.integer) - 1 do array[i + 1] = lua_value(lib, items[i], true) end
    return array
  elseif t == ffi.C.MVVM_TYPE_RECORD then
    local items, record = ffi.cast("const mvvm_value *", v.object), {}
    local fields = lib.records[ffi.string(v.string)]
    for i = 0, tonumber(v.integer) - 1 do
      local value = lua_value(lib, items[i], true)
      if value ~= mvvm.null then record[fields[i + 1]] = value end
    end
    return record
  elseif t == ffi.C.MVVM_TYPE_OBJECT then
    return v.object
  end
  return inside and t == ffi.C.MVVM_TYPE_NULL and mvvm.null or nil
end

-- The value the caller owns in `out` (mvvm_value[1]), read, then freed.
local function take(lib, out)
  local value = lua_value(lib, out[0], false)
  lib.C.mvvm_value_free(out)
  return value
end

-- --- objects ------------------------------------------------------------------------------------

local wrap, adopt

function mvvm.handle(object) return owner(object).handle end
function mvvm.class_of(object) return owner(object).class end
function mvvm.library_of(object) return owner(object).lib end
function mvvm.loop_of(object) return owner(object).loop end

-- Remembers what the bindings know of `object` (a loop or an object of `lib`); its handle is
-- released by mvvm.close, or when the object is collected.
function adopt(object, lib, handle, fields)
  fields.handle, fields.lib = handle, lib
  fields.box = ffi.gc(ffi.new("mvvm_handle[1]", handle), function(box) lib.C.mvvm_release(box[0]) end)
  state[object] = fields
  return object
end

-- Releases a loop or an object; closing twice does nothing.
function mvvm.close(object)
  local s = owner(object)
  if not s.closed then
    s.closed = true
    ffi.gc(s.box, nil)
    s.lib.C.mvvm_release(s.handle)
  end
end

function mvvm.closed(object) return owner(object).closed == true end

-- The property `name` (the library's name) of `object`, through mvvm_get.
function mvvm.get(object, name)
  local s = owner(object)
  local out = ffi.new("mvvm_value[1]")
  call(s.lib, "mvvm_get", s.handle, name, out)
  return take(s.lib, out)
end

-- Sets the binding `name` of `object` to `value`, converted by the library (mvvm_set).
function mvvm.set(object, name, value)
  local s = owner(object)
  local values, keep = pack(s.lib, { value }, 1)
  call(s.lib, "mvvm_set", s.handle, name, values)
  return keep -- alive until here
end

-- Runs the command `name` of `object` with its arguments by position (...) or, given one table
-- whose keys are all names of its arguments, by name. Gives the result (nil when it returns
-- nothing); nil, the message and "MVVM_ERR_COMMAND_FAILED" when its Swift code throws.
local function arguments(s, name, n, args)
  local names = nil
  local command = s.class.commands[name]
  local by_name = n == 1 and type(args[1]) == "table" and not state[args[1]] and getmetatable(args[1]) == nil
                  and next(args[1]) ~= nil and #args[1] == 0 and command ~= nil
  if by_name then
    for key in pairs(args[1]) do
      if not command.argument_names[library_name(key)] then by_name = false end
    end
  end
  local values, keep
  if by_name then
    local list, named = {}, {}
    for key, value in pairs(args[1]) do
      named[#named + 1] = library_name(key)
      list[#list + 1] = value
    end
    n = #list
    values, keep = pack(s.lib, list, n)
    names = ffi.new("const char *[?]", n)
    for i = 1, n do names[i - 1] = named[i] end
    keep[#keep + 1] = named
  else
    values, keep = pack(s.lib, args, n)
  end
  return names, values, n, keep
end

function mvvm.call(object, name, ...)
  local s = owner(object)
  local names, values, n, keep = arguments(s, name, select("#", ...), { ... })
  local result = ffi.new("mvvm_value[1]")
  local status = s.lib.C.mvvm_call_named(s.handle, name, names, values, n, result)
  if status == ffi.C.MVVM_ERR_COMMAND_FAILED then
    local message = ffi.string(s.lib.C.mvvm_last_error())
    check(s.lib, 0, name) -- an error a subscriber raised meanwhile
    return nil, message, "MVVM_ERR_COMMAND_FAILED"
  end
  check(s.lib, status, "mvvm_call_named")
  local _ = keep
  return take(s.lib, result)
end

-- The items of the list property `name` of `object`, as it is now: a table of objects.
function mvvm.list(object, name)
  local s = owner(object)
  local count, out, items = ffi.new("int64_t[1]"), ffi.new("mvvm_handle[1]"), {}
  call(s.lib, "mvvm_list_count", s.handle, name, count)
  for i = 0, tonumber(count[0]) - 1 do
    call(s.lib, "mvvm_list_item", s.handle, name, i, out)
    items[i + 1] = wrap(s.lib, out[0], s.loop)
  end
  return items
end

-- A new object for the child `name` of `object`.
function mvvm.child(object, name)
  local s = owner(object)
  local out = ffi.new("mvvm_handle[1]")
  call(s.lib, "mvvm_child", s.handle, name, out)
  return wrap(s.lib, out[0], s.loop)
end

local function json_out(lib, name, handle)
  local out = ffi.new("char *[1]")
  call(lib, name, handle, out)
  local text = ffi.string(out[0])
  lib.C.mvvm_string_free(out[0])
  return json_decode(text)
end

-- What the object's class offers, and every property's value: mvvm_describe's and
-- mvvm_snapshot's JSON, decoded.
function mvvm.describe(object) return json_out(owner(object).lib, "mvvm_describe", owner(object).handle) end
function mvvm.snapshot(object) return json_out(owner(object).lib, "mvvm_snapshot", owner(object).handle) end

-- --- notifications ------------------------------------------------------------------------------

-- One callback and one destroy function for every subscription (and one completion function for
-- every async call): user_data is an integer key into `subscribers`, which holds the Lua
-- function until the library runs the destroy function, once; nothing C holds is a Lua object
-- the collector could free.
local subscribers, next_key = {}, 0
mvvm.destroyed = 0

function deliver(_, event, user_data)
  local subscriber = subscribers[tonumber(ffi.cast("intptr_t", user_data))]
  if not subscriber then return end
  local kind, value = tonumber(event.kind), nil
  if kind == ffi.C.MVVM_EVENT_SPLICE then
    value = { index = tonumber(event.index), removed = tonumber(event.removed), inserted = tonumber(event.inserted) }
  else
    value = lua_value(subscriber.lib, event.value, false)
  end
  local ok, e = pcall(subscriber.fn, ffi.string(event.name), value, kind)
  if not ok and not pending then pending = e end
end

function destroy(user_data)
  subscribers[tonumber(ffi.cast("intptr_t", user_data))] = nil
  mvvm.destroyed = mvvm.destroyed + 1
end


-- Calls fn(name, value, kind) for each change of the property or signal `name` of `object`
-- (nil: every one); `kind` is C.MVVM_EVENT_PROPERTY, _SIGNAL or _SPLICE (value {index,
-- removed, inserted}). Returns the subscription's handle, for mvvm.unsubscribe.
function mvvm.subscribe(object, name, fn)
  local s = owner(object)
  next_key = next_key + 1
  subscribers[next_key] = { fn = fn, lib = s.lib }
  local out = ffi.new("mvvm_handle[1]")
  call(s.lib, "mvvm_subscribe", s.handle, name, on_event, ffi.cast("void *", next_key), on_destroy, out)
  return { handle = out[0], lib = s.lib }
end

function mvvm.unsubscribe(subscription)
  call(subscription.lib, "mvvm_unsubscribe", subscription.handle)
end

-- How many subscriptions the library still holds (destroy not yet run).
function mvvm.subscriptions()
  local n = 0
  for _, entry in pairs(subscribers) do
    if not entry.call then n = n + 1 end
  end
  return n
end

-- --- async calls --------------------------------------------------------------------------------

-- A running async command (mvvm_call_async): call:done(), call:cancel(), call:result().
local call_meta = { __index = {} }

-- True once the call ended (its completion function has run).
function call_meta.__index.done(call)
  return call.ended == true
end

-- Cancels the call (mvvm_cancel): it ends now, on this thread, its completion function getting
-- nil and an error {status = "MVVM_ERR_CANCELLED", message}. True when this cancelled it; false
-- when it had ended already.
function call_meta.__index.cancel(call)
  if call.ended or call.handle == nil then return false end
  local status = call.lib.C.mvvm_cancel(call.handle)
  if status ~= 0 and call.ended then
    check(call.lib, 0, "mvvm_cancel") -- it ended meanwhile (an error its completion raised)
    return false
  end
  check(call.lib, status, "mvvm_cancel")
  return true
end

-- The result of an ended call; nil, the message and the status ("MVVM_ERR_COMMAND_FAILED",
-- "MVVM_ERR_CANCELLED") when it failed, as a plain command reports a failure. Raises while it runs.
function call_meta.__index.result(call)
  if not call.ended then error(call.what .. " has not ended yet: run its loop until it does", 2) end
  if call.err then return nil, call.err.message, call.err.status end
  return call.value
end

call_meta.__tostring = function(call)
  local state = not call.ended and "running" or call.err and call.err.status or "done"
  return string.format("call %s: %s", call.what, state)
end

-- mvvm_done_fn: ends the call, once, then runs its completion function with (result, nil) or
-- (nil, error); an error it raises is raised from the library call that ended it.
function complete(_, status, result, message, user_data)
  local entry = subscribers[tonumber(ffi.cast("intptr_t", user_data))]
  if not entry or not entry.call or entry.call.ended then return end
  local call = entry.call
  status = tonumber(status)
  if status == 0 then
    call.value = lua_value(entry.lib, result[0], false)
  else
    local text = message ~= nil and ffi.string(message) or ""
    if text == "" then text = call.what .. (status == ffi.C.MVVM_ERR_CANCELLED and " was cancelled" or " failed") end
    call.err = setmetatable({ status = ffi.string(entry.lib.C.mvvm_status_name(status)), message = text }, error_meta)
  end
  call.ended, call.handle = true, nil
  if entry.fn then
    local ok, e = pcall(entry.fn, call.value, call.err)
    if not ok and not pending then pending = e end
  end
end

-- Starts the async command `name` of `object` (mvvm_call_async) with its arguments as mvvm.call
-- takes them, followed by the completion function, if any, called once with (result, nil) or
-- (nil, error) when the call ends (on a virtual loop inside the advance that reaches its end;
-- before this returns for a command that does not suspend). Returns the call. The error is a
-- table {status = "MVVM_ERR_COMMAND_FAILED" (it threw) or "MVVM_ERR_CANCELLED" (call:cancel(),
-- or its object or loop closed), message}. A call that cannot start raises at once. Objects of a
-- thread loop refuse it: the library's thread would call Lua.
function mvvm.call_async(object, name, ...)
  local s = owner(object)
  local n, args = select("#", ...), { ... }
  local fn = nil
  if n > 0 and type(args[n]) == "function" then
    fn, args[n], n = args[n], nil, n - 1
  end
  if s.loop and owner(s.loop).kind == "thread" then
    error(s.class.name .. "." .. name .. ": an async call on a thread loop would end on the loop's thread, "
          .. "where Lua cannot be called; use a virtual or manual loop", 2)
  end
  local names, values, count, keep = arguments(s, name, n, args)
  local call = setmetatable({ lib = s.lib, what = s.class.name .. "." .. name }, call_meta)
  next_key = next_key + 1
  local key = next_key
  subscribers[key] = { fn = fn, lib = s.lib, call = call, object = object }
  local out = ffi.new("mvvm_handle[1]")
  local status = s.lib.C.mvvm_call_async(s.handle, name, names, values, count, on_done, ffi.cast("void *", key),
                                         on_destroy, out)
  local _ = keep
  if status ~= 0 then
    subscribers[key] = nil -- the library ran the destroy function already: this only makes sure
    check(s.lib, status, "mvvm_call_async")
  end
  if not call.ended then call.handle = out[0] end
  if pending then call:cancel() end -- an error raised while it started: raised below, the call cancelled first
  check(s.lib, 0, "mvvm_call_async")
  return call
end

-- How many async calls have not ended yet (their destroy function not run).
function mvvm.calls()
  local n = 0
  for _, entry in pairs(subscribers) do
    if entry.call then n = n + 1 end
  end
  return n
end

-- --- classes, from mvvm_classes -----------------------------------------------------------------

local function make_class(lib, description)
  local class = {
    name = description.class, display = description.display, swift_name = description.swift_name,
    doc = description.doc,
    properties = {}, commands = {}, signals = {}, children = {}, constructors = description.constructors,
  }
  for _, p in ipairs(description.properties) do class.properties[p.name] = p end
  for _, c in ipairs(description.commands) do
    c.argument_names = {}
    for _, a in ipairs(c.arguments) do c.argument_names[a.name] = true end
    class.commands[c.name] = c
  end
  for _, s in ipairs(description.signals) do class.signals[s.name] = s end
  for _, child in ipairs(description.children) do class.children[child] = description.child_classes[child] end

  local methods = {}
  for name in pairs(class.commands) do
    local returns = class.commands[name].result.type ~= "none"
    if class.commands[name].async then
      -- obj:load(3, function(result, err) ... end): mvvm_call_async, the completion function last.
      methods[name] = function(self, ...) return mvvm.call_async(self, name, ...) end
    else
      methods[name] = function(self, ...)
        if returns then return mvvm.call(self, name, ...) end
        local result, message, status = mvvm.call(self, name, ...)
        if message then return result, message, status end
        return self
      end
    end
  end
  class.meta = {
    __index = function(self, key)
      key = library_name(key)
      if class.properties[key] then
        if class.properties[key].type == "list" then return mvvm.list(self, key) end
        return mvvm.get(self, key)
      end
      if class.children[key] then return mvvm.child(self, key) end
      return methods[key]
    end,
    __newindex = function(self, key, value)
      key = library_name(key)
      if not class.properties[key] then error(class.name .. " has no property " .. key, 2) end
      mvvm.set(self, key, value)
    end,
    __tostring = function(self)
      local s = owner(self)
      return string.format("%s: 0x%x", class.name, tonumber(s.handle))
    end,
  }
  -- new(loop, ...): mvvm_new_named, the arguments by position, or by name in one table; the
  -- library picks the constructor.
  function class.new(loop, ...)
    local s = owner(loop)
    local n, args = select("#", ...), { ... }
    local names, keep_names = nil, nil
    if n == 1 and type(args[1]) == "table" and not state[args[1]] and #args[1] == 0 and next(args[1]) then
      local list, named = {}, {}
      for key, value in pairs(args[1]) do
        named[#named + 1] = library_name(key)
        list[#list + 1] = value
      end
      args, n = list, #list
      names = ffi.new("const char *[?]", n)
      for i = 1, n do names[i - 1] = named[i] end
      keep_names = named
    end
    local values, keep = pack(lib, args, n)
    local out = ffi.new("mvvm_handle[1]")
    call(lib, "mvvm_new_named", s.handle, class.name, names, values, n, out)
    local _ = { keep, keep_names }
    return wrap(lib, out[0], loop)
  end
  return class
end

-- An object for a handle of `lib`, of the class its library says.
function wrap(lib, handle, loop)
  local name = ffi.new("const char *[1]")
  call(lib, "mvvm_class_name", handle, name)
  local class = lib.classes[ffi.string(name[0])]
  return adopt(setmetatable({}, class.meta), lib, handle, { class = class, loop = loop })
end

-- --- libraries ----------------------------------------------------------------------------------

local loop_meta = { __index = {} }
local loop_kinds = { manual = "MVVM_LOOP_MANUAL", thread = "MVVM_LOOP_THREAD", virtual = "MVVM_LOOP_VIRTUAL" }

function loop_meta.__index.advance(loop, ms)
  local s = owner(loop)
  call(s.lib, "mvvm_loop_advance", s.handle, ms)
  return loop
end

function loop_meta.__index.now(loop)
  local s = owner(loop)
  local out = ffi.new("int64_t[1]")
  call(s.lib, "mvvm_loop_now_ms", s.handle, out)
  return tonumber(out[0])
end

function loop_meta.__index.close(loop)
  mvvm.close(loop)
end

local library_meta = { __index = {} }

-- A loop of this library: "virtual" (time moves with loop:advance(ms)), "manual" or "thread".
function library_meta.__index.loop(lib, kind)
  local out = ffi.new("mvvm_handle[1]")
  call(lib, "mvvm_loop_new", ffi.C[loop_kinds[kind or "virtual"]], out)
  return adopt(setmetatable({}, loop_meta), lib, out[0], { kind = kind or "virtual" })
end

local libraries = {}

-- The library at `path`, loaded once: a namespace of its classes. There is no default library:
-- the host names the one it uses.
function mvvm.load(path)
  if type(path) ~= "string" then error("mvvm.load: give the path of a library (there is no default one)", 2) end
  if not declared then error("mvvm.load: call mvvm.declare(preprocessed_header) first", 2) end
  if libraries[path] then return libraries[path] end
  local lib = setmetatable({ path = path, C = ffi.load(path), classes = {}, class_order = {}, records = {} },
                           library_meta)
  local out = ffi.new("char *[1]")
  call(lib, "mvvm_classes", out)
  local text = ffi.string(out[0])
  lib.C.mvvm_string_free(out[0])
  for _, description in ipairs(json_decode(text)) do
    local class = make_class(lib, description)
    lib.classes[description.class] = class
    lib.class_order[#lib.class_order + 1] = description.class
    local display = description.display
    while rawget(lib, display) ~= nil or library_meta.__index[display] ~= nil do display = display .. "_" end
    lib[display] = class
    for name, record in pairs(description.records or {}) do
      local fields = {}
      for i, field in ipairs(record.fields) do fields[i] = mvvm.lua_name(field.name) end
      lib.records[name] = fields
    end
  end
  libraries[path] = lib
  return lib
end

return mvvm
