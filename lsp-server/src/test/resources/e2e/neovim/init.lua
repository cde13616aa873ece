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
        cmd = { 'java', '-Xmx512m', '-Xms16m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:MinHeapFreeRatio=50', '-XX:MaxHeapFreeRatio=80', '-jar', pto_jar, 'serve' },
        root_dir = vim.fn.getcwd(),
        -- initializationOptions: the pto section under "settings"
        init_options = { settings = { debounceMs = 0 } },
        -- answers workspace/configuration "pto"
        settings = { pto = { debounceMs = 0 } },
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

local function pto_scratch(text, name)
  vim.cmd('vnew')
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text, '\n', { plain = true }))
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].filetype = 'python'
  vim.bo[buf].modifiable = false
  pcall(vim.api.nvim_buf_set_name, buf, name)
end

vim.api.nvim_create_user_command('PtoShowGeneratedCode', function()
  local client = pto_client_id and vim.lsp.get_client_by_id(pto_client_id)
  if not client then
    vim.notify('PTO language server is not running', vim.log.levels.ERROR)
    return
  end
  local params = { command = 'pto.showGeneratedCode', arguments = { vim.uri_from_bufnr(0), vim.fn.line('.') - 1 } }
  client.request('workspace/executeCommand', params, function(err, result)
    if err or not result then
      vim.notify('PTO: no rank loop on this line', vim.log.levels.INFO)
      return
    end
    pto_scratch(result.perRank, result.title .. ' (per rank)')
    if result.grouped ~= vim.NIL and result.grouped ~= nil then
      vim.cmd('diffthis')
      pto_scratch(result.grouped, result.title .. ' (grouped)')
      vim.cmd('diffthis')
    end
  end, 0)
end, {})
