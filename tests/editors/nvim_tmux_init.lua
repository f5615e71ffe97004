-- The whole configuration of the Neovim that editors.nvim_tmux runs in tmux
-- (nvim --clean -u THIS): the plugin from the source tree (editors/nvim),
-- cake-lsp and the parser of the build tree, and what a user maps in
-- on_attach. Everything else is Neovim's defaults (signs, virtual text,
-- underlines, the default colour scheme). Set by nvim_tmux_test.py:
--   CAKE_NVIM_PLUGIN  editors/nvim
--   CAKE_LSP          build/bin/cake-lsp
--   CAKE_NVIM_PARSER  build/nvim/parser/cake.so
vim.opt.runtimepath:prepend(os.getenv("CAKE_NVIM_PLUGIN"))
vim.o.number = true -- the test finds file lines on the screen by their number

require("cake").setup({
  cmd = { os.getenv("CAKE_LSP") },
  parser_path = os.getenv("CAKE_NVIM_PARSER"),
  on_attach = function(_, bufnr)
    vim.keymap.set("n", "K", vim.lsp.buf.hover, { buffer = bufnr })
  end,
})
