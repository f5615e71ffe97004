" CAKE IR files (Neovim 0.7+; newer versions also get vim.filetype.add from plugin/cake.lua).
autocmd BufRead,BufNewFile *.cake setfiletype cake
