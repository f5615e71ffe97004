-- editors.nvim: editors/nvim in headless Neovim (0.7.2 on Debian), through the
-- plugin's own setup, as installed under PREFIX/share/cake/nvim (nvim_test.sh).
-- Checks: ftdetect, :CakeInfo, the parser loads (cake.so), highlight and fold
-- captures on an example, and cake-lsp's diagnostics and hover through
-- require('cake').setup{cmd = {CAKE_LSP}}. Exit 0 all passed, 1 a failure
-- (reason on stderr), 2 overall timeout, 77 the parser cannot load here.

local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/../support/nvim_harness.lua")
local say, finish = h.say, h.finish
h.arm_timeout(80000)

local Skip = {}
local check = h.checker(true)

local root = os.getenv("CAKE_ROOT") or vim.fn.getcwd()
local server = os.getenv("CAKE_LSP")
local example = root .. "/docs/examples/hopper_gemm.cake"

local line_of = h.line_of

--- Every highlight capture name on the node range that starts at (row, col) and spans `len` bytes.
local function captures_at(query, tree, buf, row, col, len)
  local names = {}
  for id, node in query:iter_captures(tree:root(), buf, row, row + 1) do
    local sr, sc, er, ec = node:range()
    if sr == row and sc == col and er == row and ec == col + len then
      names[query.captures[id]] = true
    end
  end
  return names
end

local function run()
  check(server and vim.fn.executable(server) == 1, "CAKE_LSP is executable", server)
  check(vim.fn.exists(":CakeInfo") == 2, ":CakeInfo is defined by plugin/cake.lua")
  check(#vim.api.nvim_get_runtime_file("queries/cake/highlights.scm", false) == 1, "queries/cake/highlights.scm on 'runtimepath'")

  local cake = require("cake")
  cake.setup({ cmd = { server }, targets = { "sm_90a" } })

  -- Section - Filetype, parser and captures

  vim.cmd("edit " .. vim.fn.fnameescape(example))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo[buf].filetype == "cake", "ftdetect: .cake is filetype cake", vim.bo[buf].filetype)
  check(vim.bo[buf].commentstring == "// %s", "ftplugin: commentstring", vim.bo[buf].commentstring)

  local st = cake.state.parser
  if not st.loaded then
    say("SKIP parser: " .. tostring(st.error) .. " (Neovim tree-sitter ABI "
      .. tostring(vim.treesitter.language_version) .. ", parser.c ABI 14)")
    error(Skip, 0)
  end
  check(st.path == os.getenv("CAKE_NVIM_RTP") .. "/parser/cake.so", "parser/cake.so found on 'runtimepath'", st.path)
  local parser = vim.treesitter.get_parser(buf, "cake")
  local tree = parser:parse()[1]
  check(tree:root():type() == "source_file" and not tree:root():has_error(), "hopper_gemm.cake parses without errors", tree:root():sexpr():sub(1, 200))
  check(vim.treesitter.highlighter.active[buf] ~= nil, "tree-sitter highlighting is active in the buffer")

  local get_query = (vim.treesitter.query and vim.treesitter.query.get) or vim.treesitter.get_query
  local hl = get_query("cake", "highlights")
  check(hl ~= nil, "highlights query compiles")
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local expect = {
    { "kernel hopper_gemm", "kernel", "keyword" },
    { "kernel hopper_gemm", "hopper_gemm", "function", 7 },
    { "target sm_90a", "sm_90a", "constant.builtin", 7 },
    { "A: global bf16", "bf16", "type.builtin", 10 },
    { "A: global bf16", "global", "type.qualifier", 3 },
    { "row_major", "row_major", "attribute" },
    { "tma.load", "tma.load", "function.builtin" },
    { "pipeline s in ring", "pipeline", "keyword.repeat" },
    { "// C[M, N]", nil, "comment" },
    { "reference hopper_gemm_ref", "reference", "keyword" },
    { "reference hopper_gemm_ref", "hopper_gemm_ref", "function", 10 },
  }
  for _, e in ipairs(expect) do
    local row, col = line_of(lines, e[1])
    col = col + (e[4] or 0)
    local len = e[2] and #e[2] or #lines[row + 1] - col
    local names = captures_at(hl, tree, buf, row, col, len)
    check(names[e[3]], string.format("%q on line %d is @%s", e[2] or e[1], row + 1, e[3]), names)
  end
  local folds = get_query("cake", "folds")
  local fold_rows = {}
  for id, node in folds:iter_captures(tree:root(), buf, 0, -1) do
    if folds.captures[id] == "fold" and node:type() == "kernel_item" then fold_rows[#fold_rows + 1] = node:start() end
  end
  check(#fold_rows == 2, "folds query: the kernel and its reference fold", fold_rows)
  for _, q in ipairs({ "locals", "indents" }) do
    check(get_query("cake", q) ~= nil, q .. " query compiles")
  end

  -- Section - Language server through the plugin's setup

  local function cake_client(b)
    for _, c in pairs(vim.lsp.buf_get_clients(b)) do
      if c.name == "cake" then return c end
    end
  end
  check(vim.wait(15000, function() local c = cake_client(buf); return c and c.initialized end, 20),
    "setup's FileType autocmd started cake-lsp and attached it")
  local client = cake_client(buf)
  check(client.config.init_options.targets[1] == "sm_90a", "targets sent as initializationOptions")

  -- A broken copy: an undefined barrier name on a known line.
  local src = vim.fn.readfile(example)
  local bad_row = line_of(src, "wait full[s] parity")
  src[bad_row + 1] = src[bad_row + 1]:gsub("full%[s%]", "bogus[s]", 1)
  local broken = vim.fn.tempname() .. ".cake"
  vim.fn.writefile(src, broken)
  vim.cmd("edit " .. vim.fn.fnameescape(broken))
  local bad = vim.api.nvim_get_current_buf()
  check(vim.wait(30000, function() return #vim.diagnostic.get(bad) > 0 end, 20), "diagnostics arrive for the broken copy")
  local found
  for _, d in ipairs(vim.diagnostic.get(bad)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if d.lnum == bad_row and type(code) == "string" and code:match("^CAKE%-E") then found = code end
  end
  check(found, "a CAKE-E diagnostic on line " .. (bad_row + 1), vim.diagnostic.get(bad))
  -- The copy lives outside the repository: its own root, so its own client.
  check(cake_client(bad) and cake_client(bad).config.root_dir ~= client.config.root_dir, "a file under another root gets its own client")

  -- Hover on a buffer name in the example.
  vim.cmd("buffer " .. buf)
  local row, col = line_of(lines, "smem sA")
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = row, character = col + 6 } }
  local answers = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 10000)
  local answer = answers and answers[client.id]
  check(answer and not answer.err and answer.result and answer.result.contents, "hover on sA answers", answers)
  local text = vim.inspect(answer.result.contents)
  check(text:find("bf16", 1, true), "hover on sA names its dtype", text)

  -- Section - :CakeInfo
  local info = vim.api.nvim_exec("CakeInfo", true)
  say(info)
  check(info:find(server, 1, true), ":CakeInfo shows the server path")
  check(info:find("id " .. client.id .. ", running", 1, true), ":CakeInfo shows the client id and state")
  check(info:find("parser:   loaded", 1, true), ":CakeInfo shows the parser loaded")
  check(info:find("targets:  sm_90a", 1, true), ":CakeInfo shows the targets")

  -- Section - :CakeLowered (tcgen05.cp does not lower yet: the view says why)
  local refused = root .. "/tests/codegen/fixtures/not_lowered.cake"
  vim.cmd("edit " .. vim.fn.fnameescape(refused))
  local blines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.api.nvim_win_set_cursor(0, { line_of(blines, "tcgen05.cp u") + 1, 4 })
  check(vim.fn.exists(":CakeLowered") == 2, ":CakeLowered is defined by plugin/cake.lua")
  local view = cake.show_lowered()
  check(view and vim.api.nvim_buf_is_valid(view), ":CakeLowered opens a view buffer")
  local shown = table.concat(vim.api.nvim_buf_get_lines(view, 0, -1, false), "\n")
  check(shown:find("tmem_copy cannot be lowered to CUDA for sm_100a yet", 1, true)
    and shown:find("CAKE-E0801", 1, true), "the view says why tmem_copy does not lower", shown)
  check(vim.bo[view].filetype == "cuda" and not vim.bo[view].modifiable, "the view is read-only CUDA")
  -- row_softmax lowers: its CUDA, with #line directives naming the file.
  local softmax = root .. "/docs/examples/row_softmax.cake"
  vim.cmd("edit " .. vim.fn.fnameescape(softmax))
  local sbuf = vim.api.nvim_get_current_buf()
  check(vim.wait(10000, function() return cake_client(sbuf) ~= nil end), "cake-lsp attaches to row_softmax.cake")
  local slines = vim.api.nvim_buf_get_lines(sbuf, 0, -1, false)
  local srow = line_of(slines, "reduce.row max pm")
  vim.api.nvim_win_set_cursor(0, { srow + 1, 4 })
  local sview = cake.show_lowered()
  local cuda = sview and table.concat(vim.api.nvim_buf_get_lines(sview, 0, -1, false), "\n") or ""
  check(cuda:find('extern "C" __global__', 1, true) and cuda:find("// reduce.row max pm <- x", 1, true),
    "the view holds row_softmax's CUDA", cuda:sub(1, 300))
  os.remove(broken)
end

local ok, err = pcall(run)
if ok then
  finish(0, "editors.nvim: all checks passed")
elseif err == Skip then
  finish(77)
else
  finish(1, "FAIL: " .. tostring(err))
end
