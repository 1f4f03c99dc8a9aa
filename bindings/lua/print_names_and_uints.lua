-- What the LuaJIT binding shows of a library, for Tests/bindings/agree.py: each class's name in
-- the library's namespace ("class <c name> <name>"; records have no name in Lua, only fields)
-- and, when the library has Tests/outside's meter, its UInt64 values read back ("uint <reading>
-- <ahead(2048)> <set and read 18446744073709549568>"), numbers as the binding gives int64s.
-- Usage: luajit print_names_and_uints.lua LIBRARY MVVM_H_PREPROCESSED (bindings/lua/declare.sh)
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local mvvm = require("mvvm")

mvvm.declare(arg[2])
local lib = mvvm.load(arg[1])
for _, c_name in ipairs(lib.class_order) do
  local class, shown = lib.classes[c_name], nil
  for key, value in pairs(lib) do
    if value == class then shown = key end
  end
  print("class " .. c_name .. " " .. tostring(shown))
end
if lib.classes.meter then
  local loop = lib:loop("virtual")
  local meter = lib.classes.meter.new(loop)
  local reading, ahead = meter.reading, meter:ahead(2048)
  meter.reading = 18446744073709549568ULL
  print(string.format("uint %.0f %.0f %.0f", reading, ahead, meter.reading))
  mvvm.close(meter)
  mvvm.close(loop)
end
