-- CAKE IR for Neovim: filetype and the :CakeInfo, :CakeLowered and
-- :CakeRestart commands. The language
-- server and the tree-sitter parser start with require('cake').setup{}.
if vim.g.loaded_cake then
  return
end
vim.g.loaded_cake = 1

if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { cake = "cake" } })
end

local create = vim.api.nvim_create_user_command -- Neovim 0.7+
create("CakeInfo", function()
  require("cake").print_info()
end, { desc = "CAKE IR: language server, parser and targets" })
create("CakeLowered", function()
  require("cake").show_lowered()
end, { desc = "CAKE IR: the lowered CUDA of the kernel under the cursor, beside it" })
create("CakeRestart", function()
  require("cake").restart()
end, { desc = "CAKE IR: restart cake-lsp for the current buffer" })
