-- Argo CD health check for llamastack.io/LlamaStackDistribution (llsd-hooks).
-- Reads what the hooks write into the status: observedGeneration and the summary conditions
-- Ready, Reconciling and Stalled. Statuses written by hooks without them fall back to the phase.
local hs = { status = "Progressing", message = "Waiting for the hooks to write a status" }
if obj.status == nil then
  return hs
end

local generation = nil
if obj.metadata ~= nil then
  generation = obj.metadata.generation
end
local observed = obj.status.observedGeneration
if generation ~= nil and observed ~= nil and observed < generation then
  hs.message = "Waiting for the hooks to observe generation " .. tostring(generation)
  return hs
end

local byType = {}
if obj.status.conditions ~= nil then
  for _, condition in ipairs(obj.status.conditions) do
    if condition.type ~= nil then
      byType[condition.type] = condition
    end
  end
end

local function said(condition)
  if condition.message == nil or condition.message == "" then
    return tostring(condition.reason)
  end
  return tostring(condition.reason) .. ": " .. condition.message
end

-- Held on purpose (the llamastack.io/hold-children annotation): paused, as Argo CD shows a
-- suspended CronJob, rather than broken; it changes when someone removes the annotation.
local ready = byType["Ready"]
local readyBehind = ready ~= nil and ready.observedGeneration ~= nil and generation ~= nil
  and ready.observedGeneration < generation
if ready ~= nil and not readyBehind and ready.status == "False" and ready.reason == "ChildrenHeld" then
  hs.status = "Suspended"
  hs.message = said(ready)
  return hs
end

local stalled = byType["Stalled"]
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = said(stalled)
  return hs
end

local reconciling = byType["Reconciling"]
if reconciling ~= nil and reconciling.status == "True" then
  hs.message = said(reconciling)
  return hs
end

if ready ~= nil then
  if ready.observedGeneration ~= nil and generation ~= nil and ready.observedGeneration < generation then
    hs.message = "Waiting for the hooks to observe generation " .. tostring(generation)
  elseif ready.status == "True" then
    hs.status = "Healthy"
    hs.message = said(ready)
  elseif ready.reason == "ScaledToZero" then
    hs.status = "Suspended"
    hs.message = said(ready)
  else
    hs.status = "Degraded"
    hs.message = said(ready)
  end
  return hs
end

local phase = obj.status.phase
if phase == "Ready" then
  hs.status = "Healthy"
elseif phase == "Failed" then
  hs.status = "Degraded"
end
hs.message = "Phase " .. tostring(phase)
return hs
