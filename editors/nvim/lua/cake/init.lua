-- CAKE IR for Neovim 0.7+: cake-lsp (docs/lsp.md) and the tree-sitter parser.
--
--   require('cake').setup({
--     cmd = nil,            -- e.g. { "/path/to/cake-lsp" }; default: ROOT/build/bin/cake-lsp, then cake-lsp on PATH
--     targets = {},         -- default targets, e.g. { "sm_90a" } (initializationOptions.targets)
--     device = "",          -- GPU of the cost estimates, e.g. "h200"; "": each target's default
--     compile = true,       -- the compiler's facts in the background (initializationOptions.compile)
--     root_markers = { ".git", "CMakeLists.txt" },
--     on_attach = nil,      -- function(client, bufnr)
--     capabilities = nil,   -- merged into vim.lsp.protocol.make_client_capabilities()
--     treesitter = true,    -- load parser/cake.so and highlight with grammar/queries
--     parser_path = nil,    -- default: parser/cake.so on 'runtimepath', then ROOT/build/nvim/parser/cake.so
--     use_lsp_config = true,-- Neovim 0.11+: vim.lsp.config('cake', ...) + vim.lsp.enable('cake')
--   })
--
-- Neovim 0.7 starts the client with vim.lsp.start_client (one per root) and
-- attaches it on FileType; 0.8-0.10 use vim.lsp.start; 0.11+ use
-- vim.lsp.config/enable (that path is not tested: Debian ships 0.7.2).
local M = {}

local defaults = {
  cmd = nil,
  targets = {},
  device = "",
  compile = true,
  root_markers = { ".git", "CMakeLists.txt" },
  on_attach = nil,
  capabilities = nil,
  treesitter = true,
  parser_path = nil,
  use_lsp_config = true,
}

M.config = vim.deepcopy(defaults)
M.state = {
  clients = {}, -- root -> client id (Neovim 0.7)
  parser = { loaded = false, path = nil, error = nil },
  lsp_path = nil, -- "start_client", "start" or "config"
}

local uv = vim.loop

local function exists(path)
  return path ~= nil and uv.fs_stat(path) ~= nil
end

local function dirname(path)
  return vim.fn.fnamemodify(path, ":h")
end

--- The root of `path`: the nearest ancestor holding the first root marker
--- (.git), else the second, ...; else the file's directory.
function M.root_dir(path)
  local start = dirname(vim.fn.fnamemodify(path, ":p"))
  for _, marker in ipairs(M.config.root_markers) do
    local dir = start
    while true do
      if exists(dir .. "/" .. marker) then
        return dir
      end
      local parent = dirname(dir)
      if parent == dir then
        break
      end
      dir = parent
    end
  end
  return start
end

--- The command that starts cake-lsp for a root, and how it was found.
function M.server_cmd(root)
  if M.config.cmd then
    return M.config.cmd, "setup{cmd}"
  end
  local built = root and (root .. "/build/bin/cake-lsp")
  if built and vim.fn.executable(built) == 1 then
    return { built }, "ROOT/build/bin"
  end
  local on_path = vim.fn.exepath("cake-lsp")
  if on_path ~= "" then
    return { on_path }, "PATH"
  end
  return nil, "not found (set cmd, build it, or cmake --install)"
end

local function client_config(root)
  local cmd = M.server_cmd(root)
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  if M.config.capabilities then
    capabilities = vim.tbl_deep_extend("force", capabilities, M.config.capabilities)
  end
  return {
    name = "cake",
    cmd = cmd,
    root_dir = root,
    capabilities = capabilities,
    init_options = { targets = M.config.targets, device = M.config.device, compile = M.config.compile },
    settings = { cake = { targets = M.config.targets, device = M.config.device, compile = M.config.compile } },
    on_attach = M.config.on_attach,
  }
end

-- Section - Tree-sitter

local function find_parser()
  if M.config.parser_path then
    return M.config.parser_path
  end
  local found = vim.api.nvim_get_runtime_file("parser/cake.so", false)
  if found[1] then
    return found[1]
  end
  local root = M.root_dir(vim.api.nvim_buf_get_name(0))
  local built = root .. "/build/nvim/parser/cake.so"
  if exists(built) then
    return built
  end
  return nil, built
end

--- Registers the parser with Neovim's tree-sitter; true when it is loaded.
function M.load_parser()
  local st = M.state.parser
  if st.loaded then
    return true
  end
  local path, tried = find_parser()
  if not path then
    st.error = "parser/cake.so is not on 'runtimepath' and there is no " .. tried
      .. " (build cake-nvim-parser or cmake --install)"
    return false
  end
  local ok, err
  if vim.treesitter.language and vim.treesitter.language.add then -- 0.9+
    ok, err = pcall(vim.treesitter.language.add, "cake", { path = path })
  elseif vim.treesitter.require_language then -- 0.7, 0.8
    ok, err = pcall(vim.treesitter.require_language, "cake", path)
  else
    ok, err = false, "this Neovim has no tree-sitter language loader"
  end
  st.path = path
  st.loaded = ok and err ~= false
  st.error = (not st.loaded) and tostring(err) or nil
  return st.loaded
end

--- Starts tree-sitter highlighting in a buffer (0.8+: vim.treesitter.start).
function M.highlight(bufnr)
  if not M.load_parser() then
    return false
  end
  if vim.treesitter.start then
    return pcall(vim.treesitter.start, bufnr, "cake")
  end
  local ok, parser = pcall(vim.treesitter.get_parser, bufnr, "cake")
  if not ok then
    return false
  end
  vim.treesitter.highlighter.new(parser)
  return true
end

-- Section - Language server

--- Starts (or reuses) cake-lsp for a buffer and attaches it; returns the client id.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local name = vim.api.nvim_buf_get_name(bufnr)
  local root = M.root_dir(name ~= "" and name or vim.fn.getcwd() .. "/x")
  local config = client_config(root)
  if not config.cmd then
    vim.notify("cake: cake-lsp " .. select(2, M.server_cmd(root)), vim.log.levels.WARN)
    return nil
  end
  if vim.lsp.start then -- 0.8+: reuses a client with the same name and root
    M.state.lsp_path = "start"
    local id = vim.lsp.start(config, { bufnr = bufnr })
    M.state.clients[root] = id
    return id
  end
  M.state.lsp_path = "start_client"
  local id = M.state.clients[root]
  if not id or vim.lsp.client_is_stopped(id) then
    id = vim.lsp.start_client(config)
    M.state.clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  local group = vim.api.nvim_create_augroup("cake", { clear = true })
  M.state.lsp_path = nil

  if M.config.use_lsp_config and vim.lsp.config and vim.lsp.enable then
    -- Neovim 0.11+: the built-in configuration framework attaches by filetype.
    M.state.lsp_path = "config"
    local base = client_config(M.root_dir(vim.fn.getcwd() .. "/x"))
    base.root_dir = nil
    base.filetypes = { "cake" }
    base.root_markers = M.config.root_markers
    vim.lsp.config("cake", base)
    vim.lsp.enable("cake")
  end
  -- Each cake buffer: attach the client (unless 0.11's vim.lsp.enable does)
  -- and start tree-sitter highlighting; also for buffers already open.
  local function on_cake_buffer(buf)
    if M.state.lsp_path ~= "config" then
      M.attach(buf)
    end
    if M.config.treesitter then
      M.highlight(buf)
    end
  end
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = "cake",
    callback = function(args)
      on_cake_buffer(args.buf)
    end,
  })
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == "cake" then
      on_cake_buffer(buf)
    end
  end
end

local function cake_clients(bufnr)
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local out = {}
  for _, c in ipairs(get()) do
    if c.name == "cake" and (bufnr == nil or vim.lsp.buf_is_attached(bufnr, c.id)) then
      table.insert(out, c)
    end
  end
  return out
end

--- Stops the buffer's cake-lsp clients and starts them again.
function M.restart()
  local buf = vim.api.nvim_get_current_buf()
  for _, c in ipairs(cake_clients()) do
    c.stop()
  end
  M.state.clients = {}
  vim.defer_fn(function()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].filetype == "cake" then
        M.attach(b)
      end
    end
  end, 500)
  return buf
end

--- :CakeLowered: the CUDA of the kernel under the cursor (cake/lowered,
--- docs/lowering.md) in a read-only buffer beside it, filetype cuda; it
--- follows the .cake buffer's edits (asked again 300 ms after the last).
--- Returns the view's buffer, or nil with a message.
function M.show_lowered()
  local src = vim.api.nvim_get_current_buf()
  local client = cake_clients(src)[1]
  if not client then
    vim.notify("cake: no cake-lsp attached to this buffer", vim.log.levels.WARN)
    return nil
  end
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local function ask(p)
    local r = client.request_sync("cake/lowered", p, 10000, src)
    if not r or r.err or not r.result then
      return nil, (r and r.err and r.err.message) or "no answer from cake-lsp"
    end
    return r.result
  end
  local result, err = ask(params)
  if not result then
    vim.notify("cake: " .. err, vim.log.levels.WARN)
    return nil
  end
  local function text(res)
    if res.ok then
      return vim.split(res.cuda, "\n", { plain = true })
    end
    -- Only E0801s: constructs the lowering lacks; anything else: the file's own errors.
    local not_yet = true
    for _, p in ipairs(res.problems) do
      if p.code ~= "CAKE-E0801" then not_yet = false end
    end
    local lines = { not_yet
        and ("// " .. res.kernel .. " cannot be lowered to CUDA for " .. res.target .. " yet (docs/lowering.md):")
        or ("// " .. res.kernel .. " is not lowered to CUDA for " .. res.target .. " while the file has errors:") }
    for _, p in ipairs(res.problems) do
      table.insert(lines, string.format("//   line %d: %s: %s", p.range.start.line + 1, p.code, p.message))
    end
    return lines
  end
  local name = "cake-lowered://" .. result.kernel .. "." .. result.target .. ".cu"
  local view = vim.fn.bufnr(name)
  if view == -1 then
    view = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(view, name)
    vim.bo[view].buftype = "nofile"
    vim.bo[view].filetype = "cuda"
  end
  local function fill(res)
    vim.bo[view].modifiable = true
    vim.api.nvim_buf_set_lines(view, 0, -1, false, text(res))
    vim.bo[view].modifiable = false
  end
  fill(result)
  if vim.fn.bufwinnr(view) == -1 then
    vim.cmd("vertical sbuffer " .. view)
    vim.cmd("wincmd p")
  end
  -- Follow the edits of the .cake buffer, by the kernel's name.
  local generation = 0
  local follow = { textDocument = params.textDocument, kernel = result.kernel, target = result.target }
  vim.api.nvim_create_autocmd({ "TextChanged", "TextChangedI" }, {
    buffer = src,
    callback = function()
      if not vim.api.nvim_buf_is_valid(view) then
        return true -- the view is gone: stop following
      end
      generation = generation + 1
      local mine = generation
      vim.defer_fn(function()
        if mine ~= generation or not vim.api.nvim_buf_is_valid(view) then
          return
        end
        local res = ask(follow)
        if res then
          fill(res)
        end
      end, 300)
    end,
  })
  return view
end

--- What :CakeInfo shows, as a table.
function M.info(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local name = vim.api.nvim_buf_get_name(bufnr)
  local root = M.root_dir(name ~= "" and name or vim.fn.getcwd() .. "/x")
  local cmd, how = M.server_cmd(root)
  local clients = {}
  for _, c in ipairs(cake_clients()) do
    table.insert(clients, {
      id = c.id,
      root = c.config.root_dir,
      state = c.is_stopped() and "stopped" or (c.initialized and "running" or "starting"),
      attached = vim.lsp.buf_is_attached(bufnr, c.id),
    })
  end
  return {
    nvim = tostring(vim.version().major) .. "." .. vim.version().minor .. "." .. vim.version().patch,
    filetype = vim.bo[bufnr].filetype,
    root = root,
    server = cmd and table.concat(cmd, " ") or nil,
    server_found = how,
    lsp_path = M.state.lsp_path or "(setup not called)",
    clients = clients,
    parser = vim.deepcopy(M.state.parser),
    queries = vim.api.nvim_get_runtime_file("queries/cake/*.scm", true),
    targets = M.config.targets,
  }
end

function M.print_info()
  local i = M.info()
  local lines = {
    "cake: Neovim " .. i.nvim .. ", buffer filetype " .. (i.filetype ~= "" and i.filetype or "(none)"),
    "  root:     " .. i.root,
    "  server:   " .. (i.server or "(none)") .. "  [" .. i.server_found .. "]",
    "  lsp:      " .. i.lsp_path,
  }
  if #i.clients == 0 then
    table.insert(lines, "  client:   none")
  end
  for _, c in ipairs(i.clients) do
    table.insert(lines, string.format("  client:   id %d, %s, root %s%s", c.id, c.state, c.root or "?",
      c.attached and ", attached to this buffer" or ""))
  end
  table.insert(lines, "  parser:   " .. (i.parser.loaded and ("loaded from " .. i.parser.path)
    or ("not loaded" .. (i.parser.error and (": " .. i.parser.error) or ""))))
  table.insert(lines, "  queries:  " .. (#i.queries > 0 and table.concat(vim.tbl_map(function(q)
    return vim.fn.fnamemodify(q, ":t:r")
  end, i.queries), ", ") .. " (" .. dirname(i.queries[1]) .. ")" or "none on 'runtimepath'"))
  table.insert(lines, "  targets:  " .. (#i.targets > 0 and table.concat(i.targets, ", ") or "(from the files)"))
  vim.api.nvim_echo({ { table.concat(lines, "\n") } }, true, {})
end

return M
