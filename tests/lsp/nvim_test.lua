-- Neovim's built-in LSP client against cake-lsp, headless (CTest `lsp.nvim`).
--
--   CAKE_LSP=build/bin/cake-lsp nvim --headless --clean -c "luafile tests/lsp/nvim_test.lua"
--
-- (Neovim 0.7.2 has no -l.) Starts cake-lsp with vim.lsp.start_client, opens
-- docs/examples/kmeans_assign.cake and a broken copy, waits for their
-- diagnostics (vim.diagnostic.get) and checks code and line; asks for hover
-- and definition when the server advertises them (else prints SKIP). Exits 0
-- when every check passes, 1 on the first failure (with the reason on
-- stderr), 2 when the whole run takes longer than CAKE_NVIM_TIMEOUT_MS
-- (default 60000). Uses no plugin: editors/nvim/ is for that.

local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/../support/nvim_harness.lua")
local say, finish, check = h.say, h.finish, h.checker(false)
h.arm_timeout(60000)

local root = os.getenv("CAKE_ROOT") or vim.fn.getcwd()
local server = os.getenv("CAKE_LSP")
local example = root .. "/docs/examples/kmeans_assign.cake"

local function line_of(lines, needle)
  local row, _, line = h.line_of(lines, needle)
  return row, line
end

local function open(path, client_id)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = "cake"
  check(vim.lsp.buf_attach_client(buf, client_id), "attach " .. path)
  return buf
end

local function wait_diagnostics(buf, what)
  local ok = vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  check(ok, "diagnostics for " .. what .. " within 30 s")
  return vim.diagnostic.get(buf)
end

local function diagnostic_code(d)
  return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
end

local function run()
  check(server and server ~= "", "CAKE_LSP names the cake-lsp binary")
  check(vim.fn.executable(server) == 1, "CAKE_LSP is executable", server)
  local published = {}
  local handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      published[result.uri] = (published[result.uri] or 0) + 1
      return vim.lsp.handlers["textDocument/publishDiagnostics"](err, result, ctx, config)
    end,
  }
  local client_id = vim.lsp.start_client({
    name = "cake-lsp",
    cmd = { server },
    root_dir = root,
    handlers = handlers,
  })
  check(client_id, "vim.lsp.start_client started cake-lsp")
  local client = vim.lsp.get_client_by_id(client_id)
  check(vim.wait(10000, function() return client.initialized end, 10), "the client initialised within 10 s")
  local caps = client.server_capabilities or {}

  -- A broken copy: an undefined barrier name on a known line.
  local lines = vim.fn.readfile(example)
  local bad_line = line_of(lines, "wait x_full parity(0)")
  local broken = vim.deepcopy(lines)
  broken[bad_line + 1] = broken[bad_line + 1]:gsub("x_full", "bogus")
  local broken_path = vim.fn.tempname() .. ".cake"
  vim.fn.writefile(broken, broken_path)

  local bad = open(broken_path, client_id)
  local diags = wait_diagnostics(bad, "the broken copy")
  local found = false
  for _, d in ipairs(diags) do
    if diagnostic_code(d) == "CAKE-E0101" and d.lnum == bad_line then found = true end
  end
  check(found, "a CAKE-E0101 diagnostic on line " .. bad_line, diags)
  say("PASS diagnostics: CAKE-E0101 on line " .. bad_line)

  local good = open(example, client_id)
  local uri = vim.uri_from_bufnr(good)
  check(vim.wait(30000, function() return (published[uri] or 0) > 0 end, 20), "diagnostics published for the example")
  local errors = vim.diagnostic.get(good, { severity = vim.diagnostic.severity.ERROR })
  check(#errors == 0, "kmeans_assign.cake draws no error", errors)
  say("PASS example: no errors")

  local use_line, text = line_of(lines, "wait x_full parity(0)")
  local col = text:find("x_full", 1, true)  -- 1-based: one past the name's start, 0-based
  local params = { textDocument = { uri = uri }, position = { line = use_line, character = col } }

  if caps.hoverProvider then
    local answers = vim.lsp.buf_request_sync(good, "textDocument/hover", params, 10000)
    local answer = answers and answers[client_id]
    check(answer and not answer.err, "hover answers", answers)
    check(answer.result and answer.result.contents, "hover on x_full has contents", answer)
    say("PASS hover")
  else
    say("SKIP hover: hoverProvider not advertised")
  end

  if caps.definitionProvider then
    local answers = vim.lsp.buf_request_sync(good, "textDocument/definition", params, 10000)
    local answer = answers and answers[client_id]
    check(answer and not answer.err and answer.result, "definition answers", answers)
    local loc = answer.result[1] or answer.result
    local range = loc.targetSelectionRange or loc.range
    local decl_line = line_of(lines, "mbarrier x_full")
    check(range and range.start.line == decl_line, "definition of x_full is on line " .. decl_line, loc)
    say("PASS definition")
  else
    say("SKIP definition: definitionProvider not advertised")
  end
  os.remove(broken_path)
end

local ok, err = pcall(run)
if ok then
  finish(0, "nvim_test: all checks passed")
else
  finish(1, "FAIL: " .. tostring(err))
end
