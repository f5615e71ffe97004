-- What the headless Neovim tests share (tests/lsp/nvim_test.lua,
-- tests/editors/nvim_test.lua): messages on stderr, exiting with a code
-- after stopping every LSP client, an overall timeout, checks that raise,
-- and finding a line. Loaded with dofile() from the test's own directory:
--
--   local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h")
--                    .. "/../support/nvim_harness.lua")
local M = {}

function M.say(msg)
  io.stderr:write(msg .. "\n")
end

--- Stops every client and exits Neovim with `code` (after `msg` on stderr).
function M.finish(code, msg)
  if msg then M.say(msg) end
  for _, client in pairs(vim.lsp.get_active_clients()) do
    client.stop(true)
  end
  vim.cmd("cquit " .. code)
end

--- Exits with 2 once CAKE_NVIM_TIMEOUT_MS (or `default_ms`) has passed.
function M.arm_timeout(default_ms)
  local ms = tonumber(os.getenv("CAKE_NVIM_TIMEOUT_MS") or "") or default_ms
  vim.defer_fn(function() M.finish(2, "FAIL: timeout after " .. ms .. " ms") end, ms)
end

--- Raises `what` (with `detail`) unless `cond`; says PASS when `verbose`.
function M.checker(verbose)
  return function(cond, what, detail)
    if not cond then error(what .. (detail ~= nil and (": " .. vim.inspect(detail)) or ""), 0) end
    if verbose then M.say("PASS " .. what) end
  end
end

--- The 0-based row of the first line holding `needle`, the 0-based column
--- where it starts, and the line.
function M.line_of(lines, needle)
  for i, l in ipairs(lines) do
    local col = l:find(needle, 1, true)
    if col then return i - 1, col - 1, l end
  end
  error("no line with " .. needle, 0)
end

return M
