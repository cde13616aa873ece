local pto_jar = '/path/to/pto-tools.jar'
local pto_client_id = nil

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'python',
  callback = function(args)
    if vim.bo[args.buf].buftype ~= '' then
      return -- not a file (such as the generated-code scratch buffers below)
    end
    if pto_client_id == nil or vim.lsp.get_client_by_id(pto_client_id) == nil then
      pto_client_id = vim.lsp.start_client({
        name = 'pto',
        cmd = { 'java', '-Xmx512m', '-XX:+UseParallelGC', '-jar', pto_jar, 'serve' },
        root_dir = vim.fn.getcwd(),
        -- initializationOptions: the pto section under "settings"
        init_options = { settings = { outputFolder = 'build_output', codegenOnSave = true } },
        -- answers workspace/configuration "pto"
        settings = { pto = { outputFolder = 'build_output', codegenOnSave = true } },
        on_init = function(client)
          -- Neovim does not send the settings by itself
          client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
        end,
        handlers = {
          -- grouped / not-grouped rank loops per file, e.g. for the statusline
          ['pto/loopSummary'] = function(_, result)
            local bufnr = vim.uri_to_bufnr(result.uri)
            vim.b[bufnr].pto_loops = string.format('%d grouped, %d not grouped', result.grouped, result.notGrouped)
          end,
        },
      })
    end
    vim.lsp.buf_attach_client(args.buf, pto_client_id)
  end,
})
