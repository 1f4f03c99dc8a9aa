-- A check of a description, as the LuaJIT binding reads it (mvvm.json_decode), against its schema
-- (docs/description.schema.json, read by the same reader): the few JSON Schema keywords the
-- schema uses. The reader gives arrays and objects as tables, so an empty one is either; a
-- pattern is a Lua pattern once its one kind of group, (a|b) or (a|b)?, is spelt out.
-- check.errors(value, schema) -> a list of what breaks it ("" paths for the whole).
local check = {}

local function is_array(value)
  if type(value) ~= "table" then return false end
  local n = 0
  for k in pairs(value) do
    if type(k) ~= "number" then return false end
    n = n + 1
  end
  return n == #value
end

local function is_object(value, null)
  if type(value) ~= "table" or value == null then return false end
  return next(value) == nil or not is_array(value)
end

-- "^new(_with_[a-z][a-z0-9_]*|_[0-9]+)?$" -> the Lua patterns of each choice.
local function lua_patterns(pattern)
  local before, group, optional, after = pattern:match("^([^()|]*)%(([^()]*)%)(%??)([^()|]*)$")
  if not before then
    assert(not pattern:find("[()|]"), "a pattern this check cannot read: " .. pattern)
    return { pattern }
  end
  local out = {}
  if optional == "?" then out[#out + 1] = before .. after end
  for choice in (group .. "|"):gmatch("([^|]*)|") do out[#out + 1] = before .. choice .. after end
  return out
end

local function matches(text, pattern)
  for _, p in ipairs(lua_patterns(pattern)) do
    if text:match(p) then return true end
  end
  return false
end

function check.new(schema, null)
  local self = {}
  local function resolve(ref)
    assert(ref:sub(1, 2) == "#/", "only local references: " .. ref)
    local node = schema
    for key in ref:sub(3):gmatch("[^/]+") do node = node[key] end
    return assert(node, "no " .. ref)
  end
  local function has_type(value, name)
    if name == "object" then return is_object(value, null)
    elseif name == "array" then return is_array(value)
    elseif name == "string" then return type(value) == "string"
    elseif name == "integer" then return type(value) == "number" and value == math.floor(value)
    elseif name == "number" then return type(value) == "number"
    elseif name == "boolean" then return type(value) == "boolean"
    elseif name == "null" then return value == null end
    error("no JSON type " .. name)
  end
  local ignored = { ["then"] = true, ["else"] = true, ["$schema"] = true, ["$id"] = true, ["$defs"] = true,
                    title = true, description = true, ["$comment"] = true }

  local function errors(value, rule, path, found)
    if rule == true then return found end
    if rule == false then found[#found + 1] = path .. ": nothing is allowed here"; return found end
    for keyword, spec in pairs(rule) do
      if keyword == "$ref" then errors(value, resolve(spec), path, found)
      elseif keyword == "type" then
        local names = type(spec) == "table" and spec or { spec }
        local any = false
        for _, name in ipairs(names) do any = any or has_type(value, name) end
        if not any then found[#found + 1] = path .. ": not " .. table.concat(names, " or ") end
      elseif keyword == "enum" then
        local any = false
        for _, v in ipairs(spec) do any = any or v == value end
        if not any then found[#found + 1] = path .. ": " .. tostring(value) .. " is none of the enum" end
      elseif keyword == "const" then
        if value ~= spec then found[#found + 1] = path .. ": not " .. tostring(spec) end
      elseif keyword == "pattern" then
        if type(value) == "string" and not matches(value, spec) then
          found[#found + 1] = path .. ": " .. value .. " does not match " .. spec
        end
      elseif keyword == "required" then
        if is_object(value, null) then
          for _, key in ipairs(spec) do
            if value[key] == nil then found[#found + 1] = path .. ": no " .. key end
          end
        end
      elseif keyword == "properties" then
        if is_object(value, null) then
          for key, sub in pairs(spec) do
            if value[key] ~= nil then errors(value[key], sub, path .. "/" .. key, found) end
          end
        end
      elseif keyword == "additionalProperties" then
        if is_object(value, null) then
          local known = rule.properties or {}
          for key, item in pairs(value) do
            if known[key] == nil then errors(item, spec, path .. "/" .. key, found) end
          end
        end
      elseif keyword == "items" then
        if is_array(value) then
          for i, item in ipairs(value) do errors(item, spec, path .. "/" .. (i - 1), found) end
        end
      elseif keyword == "allOf" then
        for _, sub in ipairs(spec) do errors(value, sub, path, found) end
      elseif keyword == "oneOf" then
        local kept = 0
        for _, sub in ipairs(spec) do
          if #errors(value, sub, path, {}) == 0 then kept = kept + 1 end
        end
        if kept ~= 1 then found[#found + 1] = path .. ": keeps " .. kept .. " of oneOf's choices, not one" end
      elseif keyword == "not" then
        if #errors(value, spec, path, {}) == 0 then found[#found + 1] = path .. ": matches what is not allowed" end
      elseif keyword == "if" then
        local branch
        if #errors(value, spec, path, {}) == 0 then branch = rule["then"] else branch = rule["else"] end
        if branch ~= nil then errors(value, branch, path, found) end
      elseif not ignored[keyword] then
        error("the schema uses " .. keyword .. ", which this check does not know: teach it")
      end
    end
    return found
  end

  function self.errors(value) return errors(value, schema, "", {}) end
  return self
end

return check
