-- Drives Neovim (0.7 line, headless) through the PTO server as a user would: open the example,
-- wait for the diagnostics, ask for code actions on the loop that creates a tensor, pick the
-- preferred one, wait for that loop's warning to go, save, wait for the on-save compile; then show
-- the generated code of a grouped loop.
--
-- Loaded after init.lua (the docs/editors.md configuration, unchanged but for the jar path).
-- Inputs come from the environment:
--   PTO_E2E_FILE        the Python file to open (inside the workspace folder, which is the cwd)
--   PTO_E2E_LOG         where to write the JSON log the Java test reads
--   PTO_E2E_TIMEOUT_MS  how long each step may wait
--   PTO_E2E_SCENARIO    'quickfix' (the above, the default) or 'compile': open PTO_E2E_FILE, a program
--                       that does not compile, and record its diagnostics before any save; then open
--                       PTO_E2E_SAVE_FILE and save it, and wait for its on-save compile; or 'typed':
--                       open PTO_E2E_FILE, a clean program, type a new width into the line holding
--                       PTO_E2E_NEEDLE (PTO_E2E_FROM becomes PTO_E2E_TO) and record the diagnostics of
--                       that unsaved version; or 'inlay': open PTO_E2E_FILE and record the inlay hints
--                       the server answers textDocument/inlayHint with; or 'graph': open PTO_E2E_FILE
--                       and record what pto.showTaskGraph answers (the pages' programs and paths); or
--                       'crossfile': open PTO_E2E_FILE, a clean module importing PTO_E2E_OTHER, then open
--                       PTO_E2E_OTHER and type PTO_E2E_TO over PTO_E2E_FROM on its line holding
--                       PTO_E2E_NEEDLE without saving; record PTO_E2E_FILE's diagnostics once it has some,
--                       then where go-to-definition on PTO_E2E_DEF_NEEDLE in PTO_E2E_FILE leads
-- Every wait has a timeout; on any failure the log gets an "error" and Neovim exits with status 1.

local file = assert(os.getenv('PTO_E2E_FILE'), 'PTO_E2E_FILE not set')
local log_path = assert(os.getenv('PTO_E2E_LOG'), 'PTO_E2E_LOG not set')
local step_timeout = tonumber(os.getenv('PTO_E2E_TIMEOUT_MS') or '60000')

local log = { editor = 'neovim', version = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor)
  .. '.' .. tostring(vim.version().patch), steps = {}, published = {}, messages = {} }

local function save_log()
  local f = assert(io.open(log_path, 'w'))
  f:write(vim.fn.json_encode(log))
  f:close()
end

local function step(name)
  table.insert(log.steps, name)
  save_log()
end

local function fail(msg)
  log.error = msg
  save_log()
  vim.cmd('cquit 1')
end

local function wait_for(what, cond)
  if not vim.wait(step_timeout, cond, 20) then
    error('timed out after ' .. step_timeout .. ' ms waiting for ' .. what, 0)
  end
end

-- What the server sends, recorded on the way to Neovim's own handlers (which still run).
local function record(method, keep)
  local original = vim.lsp.handlers[method]
  vim.lsp.handlers[method] = function(err, result, ctx, config)
    keep(result)
    if original then
      return original(err, result, ctx, config)
    end
  end
end
record('textDocument/publishDiagnostics', function(result)
  table.insert(log.published, { uri = result.uri, version = result.version, count = #result.diagnostics })
end)
record('window/logMessage', function(result)
  table.insert(log.messages, result.message)
end)
record('window/showMessage', function(result)
  table.insert(log.messages, result.message)
end)

-- The diagnostics as Neovim holds them for the buffer (what the user sees), 1-based lines.
local function shown(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(out, { code = d.code, line = d.lnum + 1, severity = d.severity, message = d.message })
  end
  table.sort(out, function(a, b)
    if a.line ~= b.line then
      return a.line < b.line
    end
    return tostring(a.code) < tostring(b.code)
  end)
  return out
end

local function published_version(v)
  for _, p in ipairs(log.published) do
    if p.version == v then
      return true
    end
  end
  return false
end

local function has_code_on(diags, code, line)
  for _, d in ipairs(diags) do
    if d.code == code and d.line == line then
      return true
    end
  end
  return false
end

local function line_of(bufnr, needle)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if l:find(needle, 1, true) then
      return i
    end
  end
  return nil
end

-- Save (didSave; the server compiles on save) and wait for the server's log line that starts so.
local function save_and_wait_compiled(prefix)
  vim.cmd('write')
  step('saved')
  local compiled = nil
  wait_for('the on-save compile', function()
    for _, m in ipairs(log.messages) do
      if m:find(prefix, 1, true) then
        compiled = m
        return true
      end
    end
    return false
  end)
  log.compiled = compiled
  step('compiled')
end

local function attached(bufnr)
  wait_for('the pto client to attach', function()
    for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
      if c.name == 'pto' and c.initialized then
        return true
      end
    end
    return false
  end)
end

local function run()
  step('edit')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  log.filetype = vim.bo[bufnr].filetype

  attached(bufnr)
  local client
  for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if c.name == 'pto' then
      client = c
    end
  end
  log.clientName = client.name
  log.quickFixes = client.server_capabilities.codeActionProvider ~= nil
  step('attached')

  -- Diagnostics of the opened version (the version Neovim sent: 0 on didOpen, the buffer's
  -- changedtick on each didChange).
  local opened = vim.lsp.util.buf_versions[bufnr] or 0
  log.openedVersion = opened
  wait_for('diagnostics of the opened buffer', function()
    return published_version(opened) and #vim.diagnostic.get(bufnr) > 0
  end)
  log.initial = shown(bufnr)
  step('diagnostics')

  -- The loop that creates a tensor: code actions with the cursor on its 'scratch = ...' line.
  local scratch_line = line_of(bufnr, 'scratch = pl.create_tensor(')
  if not scratch_line then
    error('no scratch line in the buffer', 0)
  end
  log.actionLine = scratch_line
  log.loopLine = scratch_line - 1
  vim.api.nvim_win_set_cursor(0, { scratch_line, 12 })

  local chosen = nil
  vim.ui.select = function(items, opts, on_choice)
    log.offered = {}
    local pick = nil
    for i, item in ipairs(items) do
      local action = item[2]
      table.insert(log.offered, { title = action.title, kind = action.kind, preferred = action.isPreferred == true })
      if pick == nil and action.isPreferred == true and action.title:find("Move 'scratch = ", 1, true) then
        pick = i
      end
    end
    save_log()
    if pick == nil then
      on_choice(nil, nil)
      return
    end
    chosen = items[pick][2].title
    on_choice(items[pick], pick)
  end
  local before = vim.api.nvim_buf_get_changedtick(bufnr)
  vim.lsp.buf.code_action()
  wait_for('the code action to be offered and applied', function()
    return log.offered ~= nil and (chosen == nil or vim.api.nvim_buf_get_changedtick(bufnr) ~= before)
  end)
  if chosen == nil then
    error('no preferred "Move \'scratch = ...\'" action offered', 0)
  end
  log.applied = chosen
  step('applied')

  -- Neovim sends the edit as didChange (after its own debounce); wait for the diagnostics of the
  -- edited version.
  local edited = vim.api.nvim_buf_get_changedtick(bufnr)
  log.editedVersion = edited
  wait_for('Neovim to send the edit', function()
    return vim.lsp.util.buf_versions[bufnr] == edited
  end)
  wait_for('diagnostics of the edited buffer (version ' .. edited .. ')', function()
    return published_version(edited)
  end)
  log.after = shown(bufnr)
  log.afterLoopLine = line_of(bufnr, 'self.chip_step(data, device=r)') -- first dispatch, for orientation
  step('rediagnosed')

  -- Save: didSave, and the server compiles on save.
  save_and_wait_compiled('pto: compiled')

  -- :PtoShowGeneratedCode (the docs' second snippet) on a grouped loop: two scratch splits, the
  -- per-rank and the grouped form, named after the loop. NeovimIT checks the names.
  local grouped_line = line_of(bufnr, 'for r in pl.range(n)')
  if not grouped_line then
    error('no grouped loop in the buffer', 0)
  end
  vim.api.nvim_win_set_cursor(0, { grouped_line, 8 })
  vim.cmd('PtoShowGeneratedCode')
  local function scratch_names()
    local names = {}
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].buftype == 'nofile' then
        table.insert(names, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':t'))
      end
    end
    table.sort(names)
    return names
  end
  wait_for('the two generated-code buffers', function()
    return #scratch_names() >= 2
  end)
  log.generatedBuffers = scratch_names()
  log.ok = true
  save_log()
end


-- The scenarios' first steps: open PTO_E2E_FILE and wait for the pto client to attach to it.
local function open_attached()
  step('edit')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  attached(bufnr)
  step('attached')
  return bufnr
end

local function run_compile()
  local bufnr = open_attached()
  local opened = vim.lsp.util.buf_versions[bufnr] or 0
  wait_for('diagnostics of the opened buffer', function()
    return published_version(opened) and #vim.diagnostic.get(bufnr) > 0
  end)
  log.initial = shown(bufnr)
  step('diagnostics')

  local save_file = assert(os.getenv('PTO_E2E_SAVE_FILE'), 'PTO_E2E_SAVE_FILE not set')
  vim.cmd('edit ' .. vim.fn.fnameescape(save_file))
  attached(vim.api.nvim_get_current_buf())
  save_and_wait_compiled('pto: compiled ' .. save_file)
  log.ok = true
  save_log()
end

-- Types PTO_E2E_TO over PTO_E2E_FROM on the buffer's line holding PTO_E2E_NEEDLE, without saving: the
-- keystrokes' effect, one change of the characters typed over, as insert mode sends it. Returns the line.
local function type_over(bufnr)
  local needle = assert(os.getenv('PTO_E2E_NEEDLE'), 'PTO_E2E_NEEDLE not set')
  local from = assert(os.getenv('PTO_E2E_FROM'), 'PTO_E2E_FROM not set')
  local to = assert(os.getenv('PTO_E2E_TO'), 'PTO_E2E_TO not set')
  local at = line_of(bufnr, needle)
  if not at then
    error('no line holding ' .. needle, 0)
  end
  local text = vim.api.nvim_buf_get_lines(bufnr, at - 1, at, false)[1]
  local col = text:find(from, 1, true)
  vim.api.nvim_buf_set_text(bufnr, at - 1, col - 1, at - 1, col - 1 + #from, { to })
  return at
end

-- Type into a clean buffer, never save: the diagnostics of the edited version are what the user sees
-- while typing.
local function run_typed()
  local bufnr = open_attached()
  local opened = vim.lsp.util.buf_versions[bufnr] or 0
  wait_for('diagnostics of the opened buffer', function()
    return published_version(opened)
  end)
  log.initial = shown(bufnr)
  step('diagnostics')

  local at = type_over(bufnr)
  local edited = vim.api.nvim_buf_get_changedtick(bufnr)
  wait_for('Neovim to send the edit', function()
    return vim.lsp.util.buf_versions[bufnr] == edited
  end)
  wait_for('diagnostics of the typed version (' .. edited .. ')', function()
    return published_version(edited) and #vim.diagnostic.get(bufnr) > 0
  end)
  log.typed = shown(bufnr)
  log.typedLine = at
  log.modified = vim.bo[bufnr].modified
  step('typed')
  log.ok = true
  save_log()
end

-- Ask for the inlay hints of the whole buffer through the standard request (Neovim 0.7 sends it on
-- request only: it has no inlay hint display), until the compile's types are there.
local function run_inlay()
  local bufnr = open_attached()
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = { start = { line = 0, character = 0 }, ['end'] = { line = vim.api.nvim_buf_line_count(bufnr), character = 0 } },
  }
  local hints = nil
  wait_for('inlay hints', function()
    local answers = vim.lsp.buf_request_sync(bufnr, 'textDocument/inlayHint', params, 5000)
    for _, a in pairs(answers or {}) do
      if a.result and #a.result > 0 then
        hints = a.result
        return true
      end
    end
    return false
  end)
  log.hints = {}
  for _, h in ipairs(hints) do
    table.insert(log.hints, { line = h.position.line + 1, character = h.position.character, label = h.label })
  end
  step('hinted')
  log.ok = true
  save_log()
end

-- Ask for the task graph of the buffer (workspace/executeCommand pto.showTaskGraph, as the snippet in
-- docs/editors.md does), until the server has analyzed it.
local function run_graph()
  local bufnr = open_attached()
  local params = { command = 'pto.showTaskGraph', arguments = { vim.uri_from_bufnr(bufnr) } }
  local result = nil
  wait_for('task graph', function()
    local answers = vim.lsp.buf_request_sync(bufnr, 'workspace/executeCommand', params, 5000)
    for _, a in pairs(answers or {}) do
      if a.result and a.result ~= vim.NIL and #a.result.pages > 0 then
        result = a.result
        return true
      end
    end
    return false
  end)
  log.index = result.index
  log.pages = {}
  for _, p in ipairs(result.pages) do
    table.insert(log.pages, { program = p.program, path = p.path })
  end
  step('graphed')
  log.ok = true
  save_log()
end

-- Edit an imported module without saving: the importing module's diagnostics follow; then go to the
-- definition of an imported name, which is in the other file.
local function run_crossfile()
  local model = open_attached()
  local opened = vim.lsp.util.buf_versions[model] or 0
  wait_for('diagnostics of the opened buffer', function()
    return published_version(opened)
  end)
  log.initial = shown(model)
  step('diagnostics')

  local other = assert(os.getenv('PTO_E2E_OTHER'), 'PTO_E2E_OTHER not set')
  vim.cmd('edit ' .. vim.fn.fnameescape(other))
  local config = vim.api.nvim_get_current_buf()
  attached(config)
  step('other attached')
  type_over(config)
  wait_for('diagnostics of the importing module after the edit', function()
    return #vim.diagnostic.get(model) > 0
  end)
  log.crossfile = shown(model)
  log.modified = vim.bo[config].modified
  step('importer republished')

  local def_needle = assert(os.getenv('PTO_E2E_DEF_NEEDLE'), 'PTO_E2E_DEF_NEEDLE not set')
  local def_line = line_of(model, def_needle)
  local def_text = vim.api.nvim_buf_get_lines(model, def_line - 1, def_line, false)[1]
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(model) },
    position = { line = def_line - 1, character = def_text:find(def_needle, 1, true) - 1 },
  }
  local answers = vim.lsp.buf_request_sync(model, 'textDocument/definition', params, step_timeout)
  for _, a in pairs(answers or {}) do
    local result = a.result
    if result and result ~= vim.NIL then
      local first = result[1] or result
      log.definition = { uri = first.uri or first.targetUri, line = (first.range or first.targetSelectionRange).start.line + 1 }
    end
  end
  step('definition')
  log.ok = true
  save_log()
end

if os.getenv('PTO_E2E_SCENARIO') == 'inlay' then
  run = run_inlay
elseif os.getenv('PTO_E2E_SCENARIO') == 'graph' then
  run = run_graph
elseif os.getenv('PTO_E2E_SCENARIO') == 'compile' then
  run = run_compile
elseif os.getenv('PTO_E2E_SCENARIO') == 'typed' then
  run = run_typed
elseif os.getenv('PTO_E2E_SCENARIO') == 'crossfile' then
  run = run_crossfile
end

-- A whole-run watchdog too: a step that blocks without yielding still ends the editor.
local watchdog = vim.loop.new_timer()
watchdog:start(step_timeout * 6, 0, vim.schedule_wrap(function()
  fail('watchdog: the run took longer than ' .. (step_timeout * 6) .. ' ms')
end))

local ok, err = xpcall(run, debug.traceback)
watchdog:stop()
if not ok then
  fail(tostring(err))
else
  -- Leaving stops the client: shutdown and exit go to the server.
  vim.cmd('qall!')
end
