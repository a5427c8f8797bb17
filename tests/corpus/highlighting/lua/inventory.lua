-- Inventory module for the game server: items, stacking and persistence.
local json = require("dkjson")

local Inventory = {}
Inventory.__index = Inventory

local MAX_STACK <const> = 64
local DEFAULT_SLOTS = 24

--[[
  Creates an inventory with `slots` empty slots.
  Items are tables of the form { id = "wood", count = 12 }.
]]
function Inventory.new(owner, slots)
  local self = setmetatable({}, Inventory)
  self.owner = owner
  self.slots = {}
  for i = 1, slots or DEFAULT_SLOTS do
    self.slots[i] = false
  end
  return self
end

function Inventory:add(id, count)
  count = count or 1
  for i, slot in ipairs(self.slots) do
    if slot and slot.id == id and slot.count < MAX_STACK then
      local room = MAX_STACK - slot.count
      local moved = math.min(room, count)
      slot.count = slot.count + moved
      count = count - moved
    elseif not slot and count > 0 then
      self.slots[i] = { id = id, count = math.min(count, MAX_STACK) }
      count = count - self.slots[i].count
    end
    if count == 0 then return true end
  end
  return false, string.format("no room for %d x %s", count, id)
end

function Inventory:total(id)
  local sum = 0
  for _, slot in pairs(self.slots) do
    if slot ~= false and slot.id == id then
      sum = sum + slot.count
    end
  end
  return sum
end

function Inventory:save(path)
  local file, err = io.open(path, "w")
  if not file then
    error("cannot save inventory: " .. tostring(err))
  end
  file:write(json.encode({ owner = self.owner, slots = self.slots }))
  file:close()
end

local inv = Inventory.new("alice", 4)
local ok, why = inv:add('wood', 100)
print(ok, why, inv:total("wood"), #inv.slots)
local ratio = 0.5 * 1e3 + 0x1F
local banner = [==[
multi-line
string ]==]
print(ratio, banner, "tab\tseparated\n")
